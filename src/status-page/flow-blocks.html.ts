import type { FlowListing } from '../application';

/** What each flow's block says above its runs; a flow without words here is introduced by its title. */
const ABOUT: Record<string, string> = {
  write_back: "The deals' attribution (channel, UTM tags, city…) written back into the CRM (<code>settings.write_back</code>); its refusals are listed with each run's rejected records.",
  leads: "The service's proxy leads delivered into the CRM as deals, or as notes on a contact's open deal (<code>settings.lead_delivery</code>); a lead the CRM refused stays among the open rejections until delivered.",
};

/**
 * A block per outbound flow of the registry (id: the flow's name with dashes, `<id>-block`), filled and shown by
 * the script's renderFlowRuns when the connection has runs of the flow; and the flows' descriptions for the script
 * (`#flows`, JSON: title, counters with their meanings).
 */
export function flowBlocksHtml(flows: FlowListing[]): string {
  return flows.map(({ name, title }) => {
    const id = name.replace(/_/g, '-');
    const heading = `${title[0].toUpperCase()}${title.slice(1).replace(/ /g, '-')} runs`;
    return `<div id="${id}-block" hidden>
      <h2 class="sub">${heading}</h2>
      <p class="muted">${ABOUT[name] ?? `Runs of the outbound flow <code>${name}</code> (${title}).`}</p>
      <table id="${id}" class="cards"><thead><tr></tr></thead><tbody></tbody></table>
    </div>`;
  }).join('\n    ');
}

/** The flows as the script reads them (`<` escaped: the JSON sits inside a script element). */
export function flowsJson(flows: FlowListing[]): string {
  const byName = Object.fromEntries(flows.map(({ name, title, counters }) => [name, { title, counters }]));
  return JSON.stringify(byName).replace(/</g, '\\u003c');
}
