import type { StreamName } from '../../connectors/canonical';
import type { RunRow } from '../../store/records';
import { OUTBOUND_FLOWS } from '../../runs/outbound-flows';
import type { RejectedRecord } from '../../runs/run-vocabulary';
import { RunSummary, SERVICE_COUNTER_KEYS, ServiceCounters, StreamCounters } from '../engine-types';

export function summaryFromRun(run: RunRow, rejected: { total: number; first: RejectedRecord[] }): RunSummary {
  const counters = Object.fromEntries(SERVICE_COUNTER_KEYS.map((k) => [k, Number(run[k] ?? 0)])) as unknown as ServiceCounters;
  return {
    runId: run.id,
    connectionId: run.connection_id,
    mode: run.mode,
    trigger: run.trigger,
    status: run.status,
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    streams: (run.streams ?? {}) as Partial<Record<StreamName, StreamCounters>>,
    counters,
    rejectedCount: rejected.total,
    rejected: rejected.first.map((row) => ({ ...row })), // plain data, not the store's rows
    error: run.error,
    direction: run.direction ?? 'sync',
    flow: run.flow ?? null,
    ...(run.flow_counters ? { flowCounters: run.flow_counters } : {}),
    ...(run.write_back ? { writeBack: { ...run.write_back } } : {}),
  };
}

/** `run 12 demo-sheet succeeded: deals read 1000 · sent 990 · unchanged 0 · rejected 10 · skipped_by_status 0 · ...` */
export function summaryLine(summary: RunSummary): string {
  const active = Object.entries(summary.streams).filter(([, c]) => c && (c.read || c.sent || c.rejected));
  const streams = active.map(
    ([name, c]) => `${name} read ${c!.read} · sent ${c!.sent} · unchanged ${c!.unchanged} · rejected ${c!.rejected}`,
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
