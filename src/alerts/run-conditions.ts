import type { AlertConfig, AlertEvent } from '../config/alert-config';
import type { RunSummary } from '../engine';
import { OUTBOUND_FLOWS } from '../engine';

/** One condition a finished run says something about: it holds (alert), it does not (it may recover), with its text. */
export interface RunCondition {
  event: Exclude<AlertEvent, 'recovered' | 'no_success_for'>;
  holds: boolean;
  message: string;
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** A run's error may be a whole unreadable file (tens of thousands of characters): chats take a few thousand at most. */
export const MAX_ERROR_CHARS = 1000;

function shorten(text: string): string {
  return text.length <= MAX_ERROR_CHARS ? text : `${text.slice(0, MAX_ERROR_CHARS)}… (${text.length} characters; the whole error is on the status page)`;
}

/** The service skipped these (not `skipped_because_not_changed` nor invalid dates, which are rejections of their own). */
export const SKIPPED_COUNTERS = ['skipped_by_status', 'skipped_by_waiting_visit_info', 'skipped_by_internal_error'] as const;

/**
 * What a finished run says about each condition of `alert`. A share with nothing to divide (no deals sent, nothing
 * read) says nothing, so a run without deals neither raises nor clears a broken-form alert.
 */
export function runConditions(run: RunSummary, alert: AlertConfig): RunCondition[] {
  const out: RunCondition[] = [];
  const id = run.connectionId;
  const what = runName(run);
  if (run.status === 'failed') out.push({ event: 'run_failed', holds: true, message: `${id}: ${what} failed: ${shorten(run.error ?? 'no error given')}` });
  if (run.status === 'succeeded') out.push({ event: 'run_failed', holds: false, message: `${id}: ${what} succeeded` });

  const deals = run.streams.deals;
  if (deals && deals.sent > 0) {
    const share = deals.sent_without_visit / deals.sent;
    out.push({
      event: 'without_visit_share',
      holds: atOrAbove(share, alert.without_visit_share),
      message: `${id}: ${percent(share)} of the deals sent in run ${run.runId} had no visit number (${deals.sent_without_visit} of ${deals.sent}; alert at ${percent(alert.without_visit_share)}): check that the site form passes the visit`,
    });
  }

  const streams = Object.values(run.streams).filter((s) => !!s);
  const read = streams.reduce((sum, s) => sum + s!.read, 0);
  const rejected = streams.reduce((sum, s) => sum + s!.rejected, 0);
  if (read > 0) {
    const share = rejected / read;
    out.push({
      event: 'rejected_share',
      holds: atOrAbove(share, alert.rejected_share),
      message: `${id}: ${percent(share)} of the records read in run ${run.runId} were rejected (${rejected} of ${read}; alert at ${percent(alert.rejected_share)}): see the rejected records`,
    });
  }

  const processed = run.counters.processed ?? 0;
  if (processed > 0) {
    const skipped = SKIPPED_COUNTERS.reduce((sum, key) => sum + (run.counters[key] ?? 0), 0);
    const share = skipped / processed;
    const parts = SKIPPED_COUNTERS.map((key) => `${key} ${run.counters[key] ?? 0}`).join(', ');
    out.push({
      event: 'skipped_share',
      holds: atOrAbove(share, alert.skipped_share),
      message: `${id}: the service skipped ${percent(share)} of the deals sent in run ${run.runId} (${skipped} of ${processed}: ${parts}; alert at ${percent(alert.skipped_share)})`,
    });
  }
  return out;
}

/**
 * A connection's conditions are watched per direction: its syncs under the event's name, each outbound flow
 * under `<event>:<flow>`, so a lead pass that succeeds says nothing of a sync that fails (and the other way).
 */
export function conditionKey(event: string, run: Pick<RunSummary, 'direction' | 'flow'>): string {
  return run.direction === 'outbound' && run.flow ? `${event}:${run.flow}` : event;
}

/** A stored condition's event and the flow it watches (null: the syncs). */
export function conditionOf(key: string): { event: string; flow: string | null } {
  const [event, flow] = key.split(':');
  return { event, flow: flow ?? null };
}

/** "run 12", or "lead delivery run 12" for an outbound run. */
export function runName(run: Pick<RunSummary, 'direction' | 'flow' | 'runId'>): string {
  return run.direction === 'outbound' && run.flow ? `${OUTBOUND_FLOWS[run.flow].title} run ${run.runId}` : `run ${run.runId}`;
}

/** A share of 0 never alerts, even with a threshold of 0. */
function atOrAbove(share: number, threshold: number): boolean {
  return share > 0 && share >= threshold;
}

/** The counters an alert about `run` carries: record totals over its streams, then the service's counters. */
export function runCounters(run: RunSummary): Record<string, number> {
  const totals: Record<string, number> = { read: 0, sent: 0, unchanged: 0, rejected: 0, sent_without_visit: 0 };
  for (const s of Object.values(run.streams)) {
    if (!s) continue;
    for (const key of Object.keys(totals)) totals[key] += (s as unknown as Record<string, number>)[key] ?? 0;
  }
  return { ...totals, ...(run.counters as unknown as Record<string, number>) };
}
