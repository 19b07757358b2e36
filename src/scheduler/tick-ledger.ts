import { Injectable, Optional } from '@nestjs/common';
import { MetricsService } from '../observability/metrics.service';
import type { ScheduledFlow, TickCounts, TickOutcome } from '../runs/schedule-ticks';

export type { ScheduledFlow, TickCounts, TickOutcome } from '../runs/schedule-ticks';

/** The scheduler's count of ticks per connection and flow, in memory (and in /metrics: tracker_sync_schedule_ticks_total). */
@Injectable()
export class TickLedger {
  private readonly counts = new Map<string, TickCounts>();

  constructor(@Optional() private readonly metrics?: MetricsService) {}

  /** `error`: why a `failed` tick could not start its run. */
  record(connectionId: string, flow: ScheduledFlow, outcome: TickOutcome, error?: string): void {
    const counts = this.entry(connectionId, flow);
    counts.ticks += 1;
    if (outcome !== 'taken') counts[outcome] += 1;
    if (outcome === 'skipped') counts.last_skipped_at = new Date().toISOString();
    if (outcome === 'failed') Object.assign(counts, { last_failed_at: new Date().toISOString(), last_failure: error ?? null });
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
      counts = { ticks: 0, started: 0, queued: 0, skipped: 0, max_wait_ms: 0, last_skipped_at: null, failed: 0, last_failed_at: null, last_failure: null };
      this.counts.set(key(connectionId, flow), counts);
    }
    return counts;
  }
}

const key = (connectionId: string, flow: ScheduledFlow): string => `${connectionId}\n${flow}`;
