import type { OutboundFlowName } from './outbound-flows';

/** What a connection runs on a schedule: its sync, or one of its outbound flows with a cron of its own. */
export type ScheduledFlow = 'sync' | OutboundFlowName;

/**
 * What became of a tick: `started` its run; `queued` behind the connection's run going (it starts when that one
 * ends); `skipped` a run of the flow was already waiting, and the tick joined it (the flow is a whole period
 * behind); `taken` another daemon ran the tick.
 */
export type TickOutcome = 'started' | 'queued' | 'skipped' | 'taken';

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
}
