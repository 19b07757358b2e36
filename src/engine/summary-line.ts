import { SERVICE_COUNTER_KEYS, RunSummary } from './engine-types';
import { OUTBOUND_FLOWS } from './outbound/flows/registry';

/**
 * `run 12 demo-sheet succeeded: deals read 1000 · sent 990 · unchanged 0 · rejected 10 · skipped_by_status 0 · ...`: a finished run
 * in one line, for the log (at the engine's top, as a flow's title is the flow registry's)
 */
export function summaryLine(summary: RunSummary): string {
  const active = Object.entries(summary.streams).filter(([, c]) => c && (c.read || c.sent || c.rejected || c.deferred_future));
  const streams = active.map(
    ([name, c]) => `${name} read ${c!.read} · sent ${c!.sent} · unchanged ${c!.unchanged} · rejected ${c!.rejected}` +
      (c!.skipped_fields_by_invalid_format ? ` · skipped_fields_by_invalid_format ${c!.skipped_fields_by_invalid_format}` : '') +
      (c!.deferred_future ? ` · deferred_future ${c!.deferred_future}` : ''),
  );
  const counters = SERVICE_COUNTER_KEYS.filter((k) => k.startsWith('skipped_')).map((k) => `${k} ${summary.counters[k]}`);
  const head = `run ${summary.runId} ${summary.connectionId} ${summary.status}`;
  if (summary.flow) {
    const counters = Object.entries(summary.flowCounters ?? {}).map(([k, v]) => `${k} ${v}`);
    return `${head}: ${OUTBOUND_FLOWS[summary.flow].title} ${counters.join(' · ') || 'nothing done'}${summary.error ? ` — ${summary.error}` : ''}`;
  }
  const body = [streams.join(' | ') || 'nothing read', ...counters].join(' · ');
  return `${head}: ${body}${summary.error ? ` — ${summary.error}` : ''}`;
}
