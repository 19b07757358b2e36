import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Job, Worker } from 'bullmq';
import { JobCall, RunTriggerService } from '../application/runs/run-trigger.service';
import { durationMs } from '../config/alert-config';
import { TrackerSyncConfig } from '../config/config.schema';
import { redisConnectionOptions } from '../redis/redis-connection';
import { HookJobData, loadBullmq, QUEUE_PREFIX, RUN_QUEUE, RunQueue, TickJobData, TRIGGER_QUEUE } from '../cluster/run-queue';
import { ConnectionsService, SyncService } from '../engine';
import type { ScheduledFlow } from './tick-ledger';
import { SCHEDULER_OPTIONS, SchedulerOptions } from './scheduler-options';
import { SchedulerService } from './scheduler.service';
import { JobLockWatch } from './job-lock-watch';

/** Runs are network-bound: a daemon takes this many runs at once (and as many ticks and webhook bursts). */
const CONCURRENCY = 64;
/** A job stalled this often is still taken over (a daemon killed twice); only then it fails. */
const MAX_STALLED = 10;

/**
 * Cluster mode: this daemon's BullMQ workers of the queues `runs` and `triggers` (src/cluster/run-queue.ts). A `run` job is run here through the one
 * trigger path (`RunTriggerService.runHere`: the executor resumes from the store's checkpoint, as after any
 * interruption); its run id and then its summary go out as the job's progress, and a run that did not succeed
 * fails the job so that BullMQ retries it after the job's backoff (not one that failed for a reason no retry lifts
 * soon, `summary.lasting`: refused credentials, a spent daily quota). `tick` and `hook` jobs ask the trigger path
 * for a run. A daemon that stops renewing a job's lock (killed, frozen) loses the job to another daemon within
 * `cluster.stalled_after`: lock `stalled_after / 3`, stalled check every `stalled_after / 4` (the check needs
 * two passes), so the worst case is 10 + 2 × 7.5 = 25 s of the default 30 s.
 */
@Injectable()
export class RunWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RunQueue');
  private workers: Worker[] = [];
  private failing = false;
  private stopping = false;
  private lockWatch: JobLockWatch | null = null;

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly triggers: RunTriggerService,
    private readonly scheduler: SchedulerService,
    private readonly connections: ConnectionsService,
    private readonly sync: SyncService,
    @Optional() @Inject(RunQueue) private readonly queue: RunQueue | null = null,
    @Optional() @Inject(SCHEDULER_OPTIONS) private readonly options?: SchedulerOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.queue || this.options?.runJobs === false) return;
    const stalledAfter = durationMs(this.config.cluster.stalled_after);
    const lockMs = Math.round(stalledAfter / 3);
    const options = {
      prefix: QUEUE_PREFIX,
      connection: redisConnectionOptions(this.queue.redisUrl),
      // the daemon's holder id (host~machine:pid:nonce, as on its run rows): GET /api/cluster names the daemon by
      // it and finds the jobs it holds (BullMQ's job.processedBy is the worker's name)
      name: this.sync.holderId,
      concurrency: CONCURRENCY,
      lockDuration: lockMs,
      stalledInterval: Math.round(stalledAfter / 4),
      maxStalledCount: MAX_STALLED,
    };
    const process = (job: Job, token?: string) => this.process(job, token);
    const { Worker: QueueWorker } = loadBullmq();
    this.workers = [new QueueWorker(RUN_QUEUE, process, options), new QueueWorker(TRIGGER_QUEUE, process, options)];
    const [runs] = this.workers;
    this.lockWatch = new JobLockWatch(lockMs);
    this.lockWatch.watch(runs);
    runs.on('error', (error) => {
      if (!this.failing) this.logger.warn(`the run queue is unreachable (will retry): ${error.message}`);
      this.failing = true;
    });
    runs.on('ready', () => {
      if (this.failing) this.logger.log('the run queue is reachable again');
      this.failing = false;
    });
    for (const worker of this.workers) {
      if (worker !== runs) worker.on('error', () => undefined); // reported once, by the runs' worker
      worker.on('stalled', (jobId) => this.logger.warn(`job ${jobId} stalled (its daemon stopped renewing it): taken over`));
    }
  }

  /** Takes no new job; resolves once the jobs going here are over (the daemon stops their runs meanwhile). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.lockWatch?.stop();
    await Promise.all(this.workers.map((worker) => worker.close()));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private process(job: Job, token?: string): Promise<unknown> {
    if (job.name === 'run') return this.run(job as Job<JobCall>, token);
    if (job.name === 'tick') return this.tick(job as Job<TickJobData>);
    if (job.name === 'hook') return this.hook(job as Job<HookJobData>);
    throw new Error(`job ${job.id}: unknown job name ${job.name}`);
  }

  private async run(job: Job<JobCall>, token?: string): Promise<{ runId: number; status: string }> {
    const { connectionId } = job.data;
    const { runId, done } = await this.triggers.runHere(job.data);
    let lockLost = false;
    const release = this.lockWatch?.hold(String(job.id), (why) => {
      lockLost = true;
      this.logger.error(`connection ${connectionId}: run ${runId} stops at its next checkpoint: job ${job.id}: ${why}; another daemon may take the job over`);
      this.sync.claimLost(connectionId, runId);
    });
    let summary: Awaited<typeof done>;
    try {
      await job.updateProgress({ runId });
      summary = await done;
    } finally {
      release?.();
    }
    await job.updateProgress({ runId, summary });
    if (summary.status === 'succeeded') return { runId, status: summary.status };
    if (summary.status === 'interrupted' && (this.stopping || lockLost)) {
      // this daemon stops, or may have lost the job: the job goes on from the checkpoint at once, no attempt spent
      // (once Redis answers; a job another daemon took over already goes on there, and this move is refused)
      await job.moveToDelayed(Date.now(), token);
      throw new (loadBullmq().DelayedError)();
    }
    if (summary.lasting) {
      // refused credentials or a spent daily quota: another attempt would only be refused again (and spend a request)
      this.logger.warn(`connection ${connectionId}: run ${runId} failed for a reason no retry lifts; the job is not tried again`);
      throw new (loadBullmq().UnrecoverableError)(`run ${runId} failed: ${summary.error ?? ''}`);
    }
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    this.logger.warn(`connection ${connectionId}: run ${runId} ${summary.status}${last ? '' : '; the job tries again after its backoff'}`);
    throw new Error(`run ${runId} ${summary.status}: ${summary.error ?? ''}`);
  }

  /** A scheduler's tick: one run job named after the tick, so a tick processed twice (taken over) asks once. */
  private async tick(job: Job<TickJobData>): Promise<void> {
    const runJobId = `tick-${String(job.id).replace(/:/g, '-')}`;
    await this.scheduler.queuedTick(job.data.connectionId, job.data.flow as ScheduledFlow, runJobId);
  }

  /** The end of a connection's webhook burst: an incremental run, or its one follow-up. */
  private async hook(job: Job<HookJobData>): Promise<void> {
    const { connectionId } = job.data;
    const stored = (await this.connections.get(connectionId).catch(() => null)) as { paused?: boolean } | null;
    if (!stored || stored.paused) return; // paused (or removed) while the debounce ran
    const outcome = await this.triggers.trigger({ connectionId, trigger: 'webhook', request: { kind: 'sync', mode: 'incremental' }, whenBusy: 'follow_up' });
    if (outcome.status === 'started') this.logger.log(`connection ${connectionId}: run ${outcome.runId} started by a webhook`);
  }
}
