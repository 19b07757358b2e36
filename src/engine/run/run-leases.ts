import { Injectable } from '@nestjs/common';
import { ConnectionConfig, TrackerSyncConfig } from '../../config/config.schema';
import { LeaseHolder, LeaseStore } from '../../store/repositories/lease.store';
import { errorText, RunInProgressError, ScheduledSlotTakenError } from '../engine-errors';
import { EngineLogger } from '../engine-logger';
import { EngineSettings } from '../engine-settings';
import { StartRunOptions } from '../engine-types';
import { scheduledSlot } from './schedule-slot';

/** How often a start waiting for an ending holder tries the lease again. */
const ENDING_HOLDER_POLL_MS = 100;

/**
 * This process's leases: one per running connection, so no two processes run a connection at once, and a
 * scheduled tick runs once across the daemons sharing the store. Renewed while the run goes.
 * In cluster mode (`cluster.redis`) there are none: the run queue's deduplication per connection keeps runs
 * apart and its job schedulers make one job per tick (src/cluster/run-queue.ts), so every method is a no-op.
 */
@Injectable()
export class RunLeases {
  private readonly me: LeaseHolder;

  constructor(
    private readonly leases: LeaseStore,
    private readonly settings: EngineSettings,
    private readonly config: TrackerSyncConfig,
  ) {
    this.me = { id: settings.holder, ttlMs: settings.leaseTtlMs, deadDaemonAfterMs: settings.deadDaemonAfterMs };
  }

  /** This process's id in leases, runs and the daemon table. */
  get holderId(): string {
    return this.me.id;
  }

  /** Cluster mode: the run queue keeps runs apart, not lease rows. */
  get inCluster(): boolean {
    return !!this.config.cluster?.redis;
  }

  /**
   * Takes the connection's lease (a scheduled run also claims its tick: `scheduledAt`, default the latest tick
   * of the connection's schedule). `runsGoing`: this process's runs, which delay a scheduled start (see
   * scheduleJitterMs). Throws RunInProgressError or ScheduledSlotTakenError.
   */
  async take(connection: ConnectionConfig, options: Pick<StartRunOptions, 'trigger' | 'scheduledAt'>, runsGoing: number): Promise<void> {
    if (this.inCluster) return;
    const tick = this.tickOf(connection, options);
    if (tick) await this.spreadScheduledStart(runsGoing);
    let lease = await this.leases.acquire(this.me, connection.id, tick);
    const waitUntil = Date.now() + this.settings.endingHolderWaitMs;
    // a holder that is letting the lease go (its run ended, on any machine; killed here, not yet reaped): wait for it
    while (!lease.taken && lease.reason === 'held' && lease.lease && Date.now() < waitUntil && (await this.leases.isEnding(lease.lease))) {
      await new Promise((resolve) => setTimeout(resolve, ENDING_HOLDER_POLL_MS));
      lease = await this.leases.acquire(this.me, connection.id, tick);
    }
    if (lease.taken) return;
    if (lease.reason === 'slot-taken') throw new ScheduledSlotTakenError(connection.id, lease.lease?.run_id ?? null, tick!);
    throw new RunInProgressError(connection.id, lease.lease?.run_id ?? null);
  }

  async bindRun(connectionId: string, runId: number): Promise<void> {
    if (this.inCluster) return;
    return this.leases.setRun(this.me, connectionId, runId);
  }

  async release(connectionId: string): Promise<void> {
    if (this.inCluster) return;
    return this.leases.release(this.me, connectionId);
  }

  /** Renews the lease every leaseRenewMs until the returned stop is called; `onLost` once if another process took it. */
  keepRenewed(connectionId: string, logger: EngineLogger, onLost: () => void): () => void {
    if (this.inCluster) return () => undefined;
    let lost = false;
    const renewal = setInterval(() => {
      this.leases.renew(this.me, connectionId).then(
        (held) => {
          if (held || lost) return;
          lost = true;
          logger.error('the lease was taken by another process; stopping the run');
          onLost();
        },
        (e) => logger.warn(`lease renewal failed (will retry): ${errorText(e)}`),
      );
    }, this.settings.leaseRenewMs);
    renewal.unref();
    return () => clearInterval(renewal);
  }

  /** The tick a scheduled run claims (ISO), so that daemons sharing the store run each tick once. */
  private tickOf(connection: ConnectionConfig, options: Pick<StartRunOptions, 'trigger' | 'scheduledAt'>): string | undefined {
    if (options.trigger !== 'schedule') return undefined;
    const slot = options.scheduledAt ?? scheduledSlot(connection.schedule);
    return slot ? slot.toISOString() : undefined;
  }

  /** Lets the least busy of the daemons sharing the store take a tick's lease (see scheduleJitterMs). */
  private async spreadScheduledStart(runsGoing: number): Promise<void> {
    const ms = Math.random() * this.settings.scheduleJitterMs + Math.min(runsGoing * 20, 1000);
    if (ms >= 1) await new Promise((resolve) => setTimeout(resolve, ms));
  }
}
