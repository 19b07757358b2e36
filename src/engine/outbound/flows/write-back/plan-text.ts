import type { FlowCost, FlowEstimate } from '../../outbound-flow';

/** `21 requests, about 19 min at the service's limits` */
export function costText(cost: Pick<FlowCost, 'requests' | 'seconds'>): string {
  return `${cost.requests.toLocaleString('en-US')} request${cost.requests === 1 ? '' : 's'}, about ${aboutTime(cost.seconds)} at the service's limits`;
}

/** The plan in one line (the pass's log). */
export function planLine(connectionId: string, estimate: FlowEstimate): string {
  const others = estimate.others.map((other) => `${other.way}: ${costText(other)}`).join('; ');
  return `connection ${connectionId}: write-back plan: ${estimate.summary}; reads ${estimate.chosen.text} (${costText(estimate.chosen)})`
    + (others ? ` rather than ${others}` : '');
}

/**
 * The plan as the CLI shows it before the pass:
 *   connection crm: write-back plan: 200,005 orders of the project created since 2026-10-28; 5 deals of this connection synced since then
 *     chosen: order info for 5 deals of this connection, their visits from the visit list: 7 requests, about 5 s at the service's limits
 *     not:    the window's order list with visits: 200,005 orders in pages of up to 10,000: 22 requests, about 19 min at the service's limits
 */
export function planLines(connectionId: string, estimate: FlowEstimate): string[] {
  return [
    `connection ${connectionId}: write-back plan: ${estimate.summary}`,
    `  chosen: ${estimate.chosen.text}: ${costText(estimate.chosen)}`,
    ...estimate.others.map((other) => `  not:    ${other.text}: ${costText(other)}`),
  ];
}

/** '5 s', '19 min', '2 h 10 min' (rounded up: a plan never promises less than it takes) */
export function aboutTime(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
