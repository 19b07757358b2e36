import type { StreamName } from '../../connectors/canonical';
import type { RunRow } from '../../store/records';
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
