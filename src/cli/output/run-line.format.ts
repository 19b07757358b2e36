import type { RunResponse } from '../../application';
import { flowCountersLine, isOutboundFlow } from '../../application/flow-descriptions';
import { writeBackLine } from './write-back.format';

const SEP = ' · ';

/** read/sent/unchanged/rejected summed over a run's streams; an outbound run's own counters (its flow's). */
export function runTotals(run: Pick<RunResponse, 'streams' | 'rejected_count'> & Partial<Pick<RunResponse, 'write_back' | 'flow' | 'flow_counters'>>): string {
  if (run.flow && isOutboundFlow(run.flow)) return flowCountersLine(run.flow, run.flow_counters ?? {});
  if (run.write_back) return writeBackLine(run.write_back);
  const t = { read: 0, sent: 0, unchanged: 0 };
  for (const s of Object.values(run.streams ?? {})) {
    if (!s) continue;
    t.read += s.read;
    t.sent += s.sent;
    t.unchanged += s.unchanged;
  }
  return `read ${t.read}${SEP}sent ${t.sent}${SEP}unchanged ${t.unchanged}${SEP}rejected ${run.rejected_count}`;
}

/** `#12 succeeded  incremental (cli)  2025-03-10T09:00:00.000Z → 2025-03-10T09:00:04.000Z  read 100 · …` */
export function runLine(run: RunResponse): string {
  const mode = run.mode === 'since' && run.since ? `since ${run.since}` : run.mode;
  const span = `${run.started_at} → ${run.finished_at ?? '…'}`;
  const error = run.error ? `  error: ${run.error}` : '';
  return `#${run.id} ${run.status}  ${mode} (${run.trigger})  ${span}  ${runTotals(run)}${error}`;
}
