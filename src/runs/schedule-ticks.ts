import type { OutboundFlowName } from './outbound-flows';

/** What a connection runs on a schedule: its sync, or one of its outbound flows with a cron of its own. */
export type ScheduledFlow = 'sync' | OutboundFlowName;

/**
 * What became of a tick: `started` its run; `queued` behind the connection's run going (it starts when that one
 * ends); `skipped` a run of the flow was already waiting, and the tick joined it (the flow is a whole period
 * behind); `taken` another daemon ran the tick; `failed` it could not start a run (the store refused the run's row,
 * e.g. a full disk, or the cluster's Redis refused its job): no run row says so, the tick's count does.
 */
export type TickOutcome = 'started' | 'queued' | 'skipped' | 'taken' | 'failed';

/** A flow's ticks since the daemon started, as the status page and `GET /api/connections` show them. */
export interface TickCounts {
  ticks: number;
  started: number;
  queued: number;
  skipped: number;
  /** the longest a tick waited for its run to start, in milliseconds */
  max_wait_ms: number;
  /** ISO-8601 UTC of the last skipped tick, or null */
  last_skipped_at: string | null;
  /** ticks that could not start a run (the store or the queue refused it) */
  failed: number;
  /** ISO-8601 UTC of the last tick that could not start a run, or null */
  last_failed_at: string | null;
  /** why it could not, or null */
  last_failure: string | null;
}
