import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { hostname } from 'os';
import { TrackerSyncConfig } from '../config/config.schema';
import { SyncService } from '../engine/sync.service';
import { DaemonStore } from '../store/repositories/daemon.store';
import { DEFAULT_HEARTBEAT_INTERVAL_MS, DEFAULT_RECENT_MS, HEARTBEAT_OPTIONS, HeartbeatOptions } from './heartbeat-options';

/** Rows silent for a day belong to daemons that will not come back. */
const PRUNE_AFTER_MS = 24 * 3600_000;

/**
 * Every few seconds this daemon writes its row in `daemon`: who it is (the same id as the holder of its
 * leases), when it started, and which connections it runs now. `GET /api/cluster` lists these rows;
 * the engine takes over the leases of a daemon whose heartbeat stopped.
 */
@Injectable()
export class HeartbeatService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Cluster');
  private readonly startedAt = new Date().toISOString();
  private timer?: NodeJS.Timeout;
  private beating?: Promise<void>;
  private failing = false;
  readonly intervalMs: number;
  readonly recentMs: number;

  constructor(
    private readonly registry: DaemonStore,
    private readonly sync: SyncService,
    @Optional() @Inject(HEARTBEAT_OPTIONS) options?: HeartbeatOptions,
    @Optional() private readonly config?: TrackerSyncConfig,
  ) {
    this.intervalMs = options?.intervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
    this.recentMs = options?.recentMs ?? DEFAULT_RECENT_MS;
  }

  get daemonId(): string {
    return this.sync.holderId;
  }

  /** Cluster mode has no heartbeat rows: BullMQ sees the daemons as the workers of its queue. */
  private get inCluster(): boolean {
    return !!this.config?.cluster?.redis;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.inCluster) return;
    await this.beat();
    await this.registry.prune(new Date(Date.now() - PRUNE_AFTER_MS).toISOString()).catch(() => undefined);
    this.timer = setInterval(() => void this.beat(), this.intervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.inCluster) return;
    if (this.timer) clearInterval(this.timer);
    await this.beating;
    await this.registry.remove(this.daemonId).catch(() => undefined);
  }

  /** Writes the row now; a failure is logged once per outage and retried on the next beat. */
  beat(): Promise<void> {
    if (this.beating) return this.beating; // a slow database: never two writes of the row at once
    this.beating = this.write().finally(() => (this.beating = undefined));
    return this.beating;
  }

  private async write(): Promise<void> {
    try {
      await this.registry.beat({
        id: this.daemonId,
        host: hostname(),
        pid: process.pid,
        started_at: this.startedAt,
        heartbeat_at: new Date().toISOString(),
        running: this.sync.activeRuns().map((r) => ({ connection_id: r.connectionId, run_id: r.runId })),
      });
      if (this.failing) this.logger.log('heartbeat written again');
      this.failing = false;
    } catch (e) {
      if (!this.failing) this.logger.warn(`heartbeat could not be written (will retry): ${(e as Error).message}`);
      this.failing = true;
    }
  }
}
