/** The page's CSS. Narrow screens (a phone, 390 px) get each table row as a card of labelled lines. */
export const STATUS_PAGE_CSS = /* css */ `
  :root { --fg:#1d232b; --muted:#6b7684; --line:#e3e7ec; --ok:#1a7f37; --bad:#c62828; --warn:#b26a00; --accent:#2f6feb; }
  /* hidden wins over display: grid/flex below (the login card used to show the empty table under it) */
  [hidden] { display: none !important; }
  * { box-sizing: border-box; }
  body { font: 14px/1.45 system-ui, -apple-system, Segoe UI, Roboto, sans-serif; color: var(--fg); margin: 0; background: #f6f8fa; }
  header { background: #fff; border-bottom: 1px solid var(--line); padding: 12px 24px; display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; }
  header h1 { font-size: 18px; margin: 0; }
  #notice { flex: 1 1 12em; color: var(--muted); }
  main { padding: 16px 24px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 16px; }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px; min-width: 0; }
  h2 { font-size: 15px; margin: 0 0 12px; }
  h2.sub { margin-top: 16px; }
  table { border-collapse: collapse; width: 100%; }
  /* words stay whole (a table column never squeezes "spreadsheet" into "spreadshee/t"); only a word longer than its
     column breaks. Texts from the source (reasons, refs, errors) may break anywhere: they can be one endless token. */
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
  #rejected td, #open-rejected td, #active-alerts td { overflow-wrap: anywhere; }
  th { color: var(--muted); font-weight: 500; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; overflow-wrap: normal; }
  tr.selected { background: #eef4ff; }
  #connections tbody tr { cursor: pointer; }
  #connections tbody tr:hover { background: #f6f8fa; }
  #connections tbody tr.selected:hover { background: #eef4ff; }
  td.actions { white-space: nowrap; }
  /* a project's heading in the connections list: its number and counts, a toggle to fold its connections */
  .filter { margin: 0 0 8px; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
  .filter input { font: inherit; padding: 4px 8px; width: min(320px, 100%); border: 1px solid var(--line); border-radius: 6px; }
  #connections tbody tr.project-row { background: #f0f3f6; cursor: default; }
  #connections tbody tr.project-row:hover { background: #f0f3f6; }
  tr.project-row .group-toggle { font-weight: 600; text-decoration: none; color: var(--fg); }
  .muted { color: var(--muted); }
  .state { font-weight: 600; }
  .state-succeeded, .state-idle { color: var(--ok); }
  .state-failed, .state-failing, .state-interrupted { color: var(--bad); }
  .state-running { color: var(--accent); }
  .state-paused { color: var(--warn); }
  .error { color: var(--bad); }
  p.banner { border: 1px solid var(--bad); border-radius: 6px; padding: 8px 12px; } /* the schedules do not fire; alerts not delivered */
  ul.warning { color: var(--warn); margin: 8px 0 14px; padding-left: 20px; } /* what a connector left out (notices) */
  .flow-line { margin-top: 4px; font-size: 0.9em; } /* an outbound flow's own state under its connection's */
  div.warning { color: var(--warn); font-size: 0.9em; } /* ticks of a flow skipped */
  #last-run-error { margin: 0 0 14px; } /* a div: a <pre> inside a <p> would end the paragraph and escape .long */
  button { font: inherit; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 10px; cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  button.link { border: 0; background: none; color: var(--accent); padding: 0; text-decoration: underline; }
  button:disabled { opacity: .5; cursor: default; }
  /* a long error (a binary file's bytes) is cut, and shown whole in a box of its own that scrolls */
  .long { overflow-wrap: anywhere; }
  ul.alerts { margin: 0; padding-left: 16px; } ul.alerts li { margin: 2px 0; }
  .long pre { margin: 4px 0; max-height: 16em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere;
    font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 6px; }
  .scroll { overflow-x: auto; }
  .counters { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(280px, 100%), 1fr)); gap: 6px 24px; margin-top: 12px; }
  .counters div { display: flex; justify-content: space-between; gap: 12px; border-bottom: 1px dotted var(--line); }
  .counters span[title] { cursor: help; }
  table.streams { width: auto; min-width: 480px; }
  table.streams td.num, table.streams th.num { text-align: right; }
  table.streams td { white-space: nowrap; overflow-wrap: normal; } /* numbers whole: the table scrolls instead */
  #chart svg { display: block; max-width: 100%; height: auto; }
  svg text { font-size: 10px; fill: var(--muted); }
  #login { max-width: 420px; margin: 80px auto; }
  #login input { width: 100%; padding: 8px; margin: 8px 0; font: inherit; }
  code { font-size: 12px; }
  dialog { width: min(560px, calc(100vw - 24px)); border: 1px solid var(--line); border-radius: 8px; padding: 16px; color: var(--fg); }
  dialog::backdrop { background: rgba(29, 35, 43, .35); }
  dialog ul { padding-left: 18px; margin: 8px 0; }
  dialog .buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 16px; }
  @media (max-width: 700px) {
    header { padding: 10px 12px; }
    main { padding: 8px; gap: 8px; }
    section { padding: 12px; }
    #login { margin: 24px 8px; }
    /* a stream per line block, its counters labelled and wrapping as whole pairs: no column to cut at the right */
    table.streams { min-width: 0; width: 100%; }
    table.streams thead { display: none; }
    table.streams tbody, table.streams tr { display: block; }
    table.streams tr { border-bottom: 1px solid var(--line); padding: 4px 0; }
    table.streams td { display: inline-block; border: 0; padding: 0 14px 0 0; }
    table.streams td:first-child { display: block; font-weight: 600; }
    table.streams td.num { text-align: left; }
    table.streams td.num::before { content: attr(data-label) " "; color: var(--muted); font-size: 12px; }
    table.cards thead { display: none; }
    table.cards tr { display: block; border-bottom: 1px solid var(--line); padding: 6px 4px; }
    table.cards td { display: flex; gap: 12px; border: 0; padding: 2px 0; }
    /* the labels' column fits the flows' counter names (already_delivered); a longer one wraps in it rather than
       pushing its value out of line */
    table.cards td::before { content: attr(data-label); flex: 0 0 10em; min-width: 0; overflow-wrap: anywhere; color: var(--muted); font-size: 12px; }
    table.cards td > div { min-width: 0; flex: 1; }
    table.cards td.none::before { content: none; }
    td.actions button { padding: 6px 14px; }
  }
`;
