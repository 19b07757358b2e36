import { Injectable, Optional } from '@nestjs/common';
import { MetricsService } from '../observability/metrics.service';
import type { OutboundFlowName } from '../runs/outbound-flows';

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

/** The scheduler's count of ticks per connection and flow, in memory (and in /metrics: tracker_sync_schedule_ticks_total). */
@Injectable()
export class TickLedger {
  private readonly counts = new Map<string, TickCounts>();

  constructor(@Optional() private readonly metrics?: MetricsService) {}

  record(connectionId: string, flow: ScheduledFlow, outcome: TickOutcome): void {
    const counts = this.entry(connectionId, flow);
    counts.ticks += 1;
    if (outcome !== 'taken') counts[outcome] += 1;
    if (outcome === 'skipped') counts.last_skipped_at = new Date().toISOString();
    this.metrics?.observeTick(connectionId, flow, outcome);
  }

  /** A tick's run started `ms` after the tick. */
  waited(connectionId: string, flow: ScheduledFlow, ms: number): void {
    const counts = this.entry(connectionId, flow);
    counts.max_wait_ms = Math.max(counts.max_wait_ms, Math.round(ms));
    this.metrics?.observeTickWait(connectionId, flow, ms / 1000);
  }

  /** Null before the flow's first tick in this process (the CLI, which runs no timers, never has one). */
  of(connectionId: string, flow: ScheduledFlow): TickCounts | null {
    const counts = this.counts.get(key(connectionId, flow));
    return counts ? { ...counts } : null;
  }

  private entry(connectionId: string, flow: ScheduledFlow): TickCounts {
    let counts = this.counts.get(key(connectionId, flow));
    if (!counts) {
      counts = { ticks: 0, started: 0, queued: 0, skipped: 0, max_wait_ms: 0, last_skipped_at: null };
      this.counts.set(key(connectionId, flow), counts);
    }
    return counts;
  }
}

const key = (connectionId: string, flow: ScheduledFlow): string => `${connectionId}\n${flow}`;
