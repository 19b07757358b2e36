import type { FlowListing } from '../application';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What a flow's block says above its runs, from the flow's description (in its folder under
 * src/engine/outbound/flows/), so a new flow needs no edit here: its `about` (`backticks` become code) and what each of its counters means; a flow without `about` is
 * introduced by its name and title.
 */
export function flowAboutHtml({ name, title, about, counters }: FlowListing): string {
  const intro = about
    ? escapeHtml(about).replace(/`([^`]+)`/g, '<code>$1</code>')
    : `Runs of the outbound flow <code>${escapeHtml(name)}</code> (${escapeHtml(title)}).`;
  const meanings = Object.entries(counters).map(([counter, meaning]) => `<code>${escapeHtml(counter)}</code>: ${escapeHtml(meaning)}`);
  return meanings.length ? `${intro} Counters: ${meanings.join('; ')}.` : intro;
}

/**
 * A block per outbound flow of the registry (id: the flow's name with dashes, `<id>-block`), filled and shown by
 * the script's renderFlowRuns when the connection has runs of the flow; and the flows' descriptions for the script
 * (`#flows`, JSON: title, counters with their meanings).
 */
export function flowBlocksHtml(flows: FlowListing[]): string {
  return flows.map((flow) => {
    const id = flow.name.replace(/_/g, '-');
    const heading = `${flow.title[0].toUpperCase()}${flow.title.slice(1).replace(/ /g, '-')} runs`;
    return `<div id="${id}-block" hidden>
      <h2 class="sub">${heading}</h2>
      <p class="muted">${flowAboutHtml(flow)}</p>
      <table id="${id}" class="cards"><thead><tr></tr></thead><tbody></tbody></table>
    </div>`;
  }).join('\n    ');
}

/** The flows as the script reads them (`<` escaped: the JSON sits inside a script element). */
export function flowsJson(flows: FlowListing[]): string {
  const byName = Object.fromEntries(flows.map(({ name, title, counters }) => [name, { title, counters }]));
  return JSON.stringify(byName).replace(/</g, '\\u003c');
}
