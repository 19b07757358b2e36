/**
 * One daemon of cluster mode in this jest process, on an EngineHarness's store (PostgreSQL) and one Redis: its
 * engine, its run queue, its trigger path, its scheduler and its BullMQ worker, the real classes wired as the
 * daemon's Nest modules wire them. Two of them on one store are two daemons (test/cluster/queue-leases.spec.ts).
 */
import { SchedulerRegistry } from '@nestjs/schedule';
import { RunTriggerService } from '../../../src/application/runs/run-trigger.service';
import { RunQueue } from '../../../src/cluster/run-queue';
import { durationMs } from '../../../src/config/alert-config';
import { ConnectorRegistry } from '../../../src/connectors/connector-registry';
import { ConnectionsService, SyncService } from '../../../src/engine';
import { createEngine } from '../../../src/engine/engine-parts';
import { CronJobsRepository } from '../../../src/scheduler/cron-jobs.repository';
import { RunWorker } from '../../../src/scheduler/run-worker';
import { SchedulerService } from '../../../src/scheduler/scheduler.service';
import { TickLedger } from '../../../src/scheduler/tick-ledger';
import { EngineHarness, memoryRegistry } from '../../support/engine-harness';

export class QueueDaemon {
  readonly sync: SyncService;
  readonly connections: ConnectionsService;
  readonly queue: RunQueue;
  readonly triggers: RunTriggerService;
  readonly scheduler: SchedulerService;
  readonly worker: RunWorker;

  /** `h.config.cluster` must name the Redis (cluster mode: the engine takes no lease); `connectors` default the memory one. */
  constructor(h: EngineHarness, connectors: ConnectorRegistry = memoryRegistry()) {
    const { redis, stalled_after } = h.config.cluster;
    if (!redis) throw new Error('QueueDaemon: h.config.cluster.redis is not set');
    const engine = createEngine({ store: h.dataSource, tracker: h.tracker, connectors, config: h.config, logger: h.logger });
    this.sync = engine.sync;
    this.connections = engine.connections;
    this.queue = new RunQueue(redis, durationMs(stalled_after));
    this.triggers = new RunTriggerService(this.sync, this.queue);
    const options = { runJobs: true };
    this.scheduler = new SchedulerService(new CronJobsRepository(new SchedulerRegistry()), this.sync, this.triggers, this.connections, h.config, engine.stores.runs, new TickLedger(), options, this.queue);
    this.worker = new RunWorker(h.config, this.triggers, this.scheduler, this.connections, this.sync, this.queue, options);
  }

  /** Its worker starts taking jobs (as at the daemon's start; the scheduler's start-up runs are not wanted here). */
  startWorker(): this {
    this.worker.onApplicationBootstrap();
    return this;
  }

  async stop(): Promise<void> {
    const stopped = this.worker.stop();
    await this.sync.shutdown(2_000);
    await stopped;
    this.triggers.onModuleDestroy();
    await this.queue.close();
  }
}
