import type { RunProgress } from '../run/run-progress';
import type { FlowPass, FlowProgress, OutboundFlow } from './outbound-flow';

/**
 * A pass's progress as progress events of its run (run 0: a dry run), as a sync's streams report theirs: at most
 * one per progressIntervalMs, with the flow's counters. `flush` sends the last position again with the final
 * counters (a flow reports a position before the runner has counted that position's items).
 */
export function outboundProgress(progress: RunProgress, flow: OutboundFlow, pass: FlowPass, runId: number): { report: (position: FlowProgress) => void; flush: () => void } {
  const { counting } = flow;
  let lastAt = 0;
  let last: FlowProgress | null = null;
  const emit = (position: FlowProgress) => {
    const c = pass.counters;
    progress.emit({
      connectionId: pass.connectionId, runId, stream: flow.name,
      read: position.done, sent: c[counting.written], unchanged: c[counting.unchanged], rejected: c[counting.rejected],
      source: { done: position.done, total: position.total, unit: position.unit },
      flowCounters: { ...c },
    });
  };
  return {
    report: (position) => {
      last = position;
      const now = Date.now();
      if (now - lastAt < progress.intervalMs) return;
      lastAt = now;
      emit(position);
    },
    flush: () => {
      if (last) emit(last);
    },
  };
}
