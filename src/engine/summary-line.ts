import { SERVICE_COUNTER_KEYS, RunSummary } from './engine-types';
import { OUTBOUND_FLOWS } from './outbound/flows/registry';

const SKIP_KEYS = SERVICE_COUNTER_KEYS.filter((k) => k.startsWith('skipped_'));

/**
 * `run 12 demo-sheet succeeded: deals read 1000 · sent 990 · unchanged 0 · rejected 10 · skipped_by_status 0 · ...`: a finished run
 * in one line, for the log (at the engine's top, as a flow's title is the flow registry's)
 */
export function summaryLine(summary: RunSummary): string {
  const active = Object.entries(summary.streams).filter(([, c]) => c && (c.read || c.sent || c.rejected || c.deferred_future));
  const streams = active.map(([name, c]) => {
    const parts = [`read ${c!.read}`, `sent ${c!.sent}`, `unchanged ${c!.unchanged}`, `rejected ${c!.rejected}`];
    // fields the connector left out of the stream's records; on the deals part, summed with the service's counter
    const leftOut = c!.skipped_fields_by_invalid_format ?? 0;
    // the service's counters are add-orders' answers: the deals stream's, on no other stream's part
    if (name === 'deals') {
      for (const key of SKIP_KEYS) parts.push(`${key} ${summary.counters[key] + (key === 'skipped_fields_by_invalid_format' ? leftOut : 0)}`);
    } else if (leftOut) parts.push(`skipped_fields_by_invalid_format ${leftOut}`);
    // rows dated after the read (incremental sheets): held back, named in a warning
    if (c!.deferred_future) parts.push(`deferred_future ${c!.deferred_future}`);
    return `${name} ${parts.join(' · ')}`;
  });
  const head = `run ${summary.runId} ${summary.connectionId} ${summary.status}`;
  if (summary.flow) {
    const counters = Object.entries(summary.flowCounters ?? {}).map(([k, v]) => `${k} ${v}`);
    return `${head}: ${OUTBOUND_FLOWS[summary.flow].title} ${counters.join(' · ') || 'nothing done'}${summary.error ? ` — ${summary.error}` : ''}`;
  }
  // a run that read nothing (a failed one, most often) has no counters to show: zeros would read as a result
  const body = streams.join(' | ') || 'nothing read';
  return `${head}: ${body}${summary.error ? ` — ${summary.error}` : ''}`;
}
