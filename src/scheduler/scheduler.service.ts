import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { TrackerSyncConfig } from '../config';
import { RunStore } from '../store/repositories/run.store';
import { RunRequest, RunTriggerService } from '../application/runs/run-trigger.service';
import type { ScheduleControl, ScheduleHalt } from '../application/connections/schedule-control';
import { ConnectionsService, RunTrigger, SyncService } from '../engine';
import { CronJobsRepository } from './cron-jobs.repository';
import { nextRunOf } from './next-run';
import { OUTBOUND_FLOW_NAMES, OutboundFlowName } from '../engine';
import { flowJobName, JOB_PREFIX, jobName, SCHEDULER_OPTIONS, SchedulerOptions } from './scheduler-options';
import { scheduledSlot } from '../config/cron-expression';
import { ScheduledFlow, TickCounts, TickLedger } from './tick-ledger';
import { ReleaseSlot, RunSlots } from './run-slots';
import { RunQueue } from '../cluster/run-queue';
import { DEFAULT_RECENT_MS, HEARTBEAT_OPTIONS, HeartbeatOptions } from '../cluster/heartbeat-options';
import { DaemonStore, isLiveDaemon } from '../store/repositories/daemon.store';

/** How soon a pause or resume written by another process reaches this daemon's jobs. */
const FOLLOW_FLAGS_MS = 10_000;
/** How long a status waits for Redis's answer before it says the schedules do not fire. */
const REDIS_PING_MS = 1_000;
/** `scheduler.concurrency` when a config built in code leaves the section out */
const DEFAULT_CONCURRENCY = 16;

/** What the scheduler needs to know of a connection (the store's row, after config sync). */
interface ScheduledConnection {
  id: string;
  schedule?: string | null;
  paused: boolean;
}

/**
 * One cron job per enabled connection with a schedule; each tick starts an incremental run.
 * Pause/resume go through refresh(id) so the jobs always mirror the stored `paused` flag.
 * Cluster mode: a BullMQ job scheduler in place of each cron job (same names), kept in Redis for the whole
 * cluster: every daemon makes them agree with the config and the stored flags at start, every FOLLOW_FLAGS_MS,
 * after a pause, resume or reload, and at once when Redis comes back (empty, after a restart without its data).
 * A tick is one `tick` job, whichever daemons are up; the worker (run-worker.ts) hands it to `queuedTick`.
 */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnApplicationShutdown, ScheduleControl {
  private readonly logger = new Logger(SchedulerService.name);
  private readonly options: SchedulerOptions;
  private follower?: NodeJS.Timeout;
  /** the runs this scheduler has going at once (scheduler.concurrency) */
  private readonly slots: RunSlots;
  private schedulersFailing = false;

  constructor(
    private readonly jobs: CronJobsRepository,
    private readonly sync: SyncService,
    private readonly triggers: RunTriggerService,
    private readonly connections: ConnectionsService,
    private readonly config: TrackerSyncConfig,
    private readonly runs: RunStore,
    private readonly ticks: TickLedger,
    @Optional() @Inject(SCHEDULER_OPTIONS) options?: SchedulerOptions,
    @Optional() @Inject(RunQueue) private readonly queue: RunQueue | null = null,
    @Optional() @Inject(DaemonStore) private readonly daemons: DaemonStore | null = null,
    @Optional() @Inject(HEARTBEAT_OPTIONS) private readonly heartbeat: HeartbeatOptions | null = null,
  ) {
    this.options = options ?? { runJobs: true };
    this.slots = new RunSlots(config.scheduler?.concurrency ?? DEFAULT_CONCURRENCY);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.runJobs) return;
    if (this.queue) {
      this.queue.onReconnect(() => void this.syncSchedulers());
      this.follower = setInterval(() => void this.syncSchedulers(), FOLLOW_FLAGS_MS);
      this.follower.unref();
      // not awaited: a daemon starting while Redis is away answers /health and its admin API meanwhile
      void this.syncSchedulers().then(() => this.startRunOnStart());
      return;
    }
    for (const connection of await this.listConnections()) this.apply(connection);
    this.follower = setInterval(() => void this.followStoredFlags().catch(() => undefined), FOLLOW_FLAGS_MS);
    this.follower.unref();
    await this.startRunOnStart();
  }

  onApplicationShutdown(): void {
    if (this.follower) clearInterval(this.follower);
    this.jobs.removeAll(JOB_PREFIX); // the cluster's job schedulers stay: they are the other daemons' too
    this.slots.clear();
  }

  /**
   * Cluster mode: the job schedulers in Redis become those the config and the stored flags want (an unpaused
   * connection's schedule, each flow's own schedule); the others are removed. A failure (Redis away) is logged
   * once per outage; the next pass (or Redis's return) tries again.
   */
  async syncSchedulers(): Promise<void> {
    if (!this.queue) return;
    try {
      const wanted = new Map<string, { pattern: string; connectionId: string; flow: ScheduledFlow }>();
      for (const connection of await this.listConnections()) {
        if (connection.paused) continue;
        if (connection.schedule) wanted.set(jobName(connection.id), { pattern: connection.schedule, connectionId: connection.id, flow: 'sync' });
        for (const flow of OUTBOUND_FLOW_NAMES) {
          const schedule = this.flowSchedule(connection.id, flow);
          if (schedule) wanted.set(flowJobName(connection.id, flow), { pattern: schedule, connectionId: connection.id, flow });
        }
      }
      const existing = await this.queue.schedulers();
      for (const [id, { pattern, connectionId, flow }] of wanted) {
        if (existing.get(id) === pattern) continue;
        await this.queue.upsertScheduler(id, pattern, { connectionId, flow }).catch((error) => {
          this.logger.error(`connection ${connectionId}: schedule "${pattern}" is not valid: ${message(error)}`);
        });
      }
      for (const id of existing.keys()) if (!wanted.has(id)) await this.queue.removeScheduler(id);
      if (this.schedulersFailing) this.logger.log('the job schedulers are in Redis again');
      this.schedulersFailing = false;
    } catch (error) {
      if (!this.schedulersFailing) this.logger.warn(`the job schedulers could not be checked (will retry): ${message(error)}`);
      this.schedulersFailing = true;
    }
  }

  /** Cluster mode: a job scheduler's tick, as the worker took it (`runJobId`: the run job it may add). */
  async queuedTick(connectionId: string, flow: ScheduledFlow, runJobId: string): Promise<void> {
    if (flow === 'sync') return this.tick(connectionId, runJobId);
    return this.flowTick(connectionId, flow, runJobId);
  }

  /**
   * Another process (the CLI, another daemon's admin API) may pause or resume a connection: the jobs follow the
   * stored flags (every FOLLOW_FLAGS_MS; a tick also reads its own connection's flag before it runs).
   */
  async followStoredFlags(): Promise<void> {
    if (!this.options.runJobs) return;
    if (this.queue) return this.syncSchedulers();
    for (const connection of await this.listConnections()) {
      const wanted = !connection.paused && !!connection.schedule;
      if (wanted !== this.jobs.has(jobName(connection.id))) this.apply(connection);
    }
  }

  /** Re-reads one connection and adds, replaces or removes its job (after pause/resume). */
  async refresh(connectionId: string): Promise<void> {
    if (!this.options.runJobs) return;
    if (this.queue) return this.syncSchedulers();
    const connection = (await this.connections.get(connectionId)) as ScheduledConnection;
    this.apply(connection);
  }

  /**
   * After a config reload: the jobs of these connections (added, changed, removed) follow the config now held;
   * a removed one loses its jobs. The other connections' jobs are left as they are.
   */
  async rebuild(connectionIds: string[]): Promise<void> {
    if (!this.options.runJobs) return;
    if (this.queue) return this.syncSchedulers();
    const configured = new Set(this.config.connections.map((c) => c.id));
    for (const id of connectionIds) {
      if (configured.has(id)) {
        await this.refresh(id);
        continue;
      }
      this.jobs.remove(jobName(id));
      for (const flow of OUTBOUND_FLOW_NAMES) this.jobs.remove(flowJobName(id, flow));
    }
  }

  /** When the connection's next scheduled run fires; null when paused or unscheduled. */
  async nextRun(connectionId: string): Promise<Date | null> {
    const name = jobName(connectionId);
    if (this.jobs.has(name)) return this.jobs.nextDate(name);
    if (this.options.runJobs && !this.queue) return null;
    const connection = (await this.connections.get(connectionId)) as ScheduledConnection;
    return nextRunOf(connection.schedule, connection.paused);
  }

  /** When the flow's next scheduled run (its own `schedule`) fires; null when paused or unscheduled. */
  nextFlowRun(connectionId: string, flow: OutboundFlowName, schedule: string | undefined, paused: boolean): Date | null {
    const name = flowJobName(connectionId, flow);
    if (this.jobs.has(name)) return this.jobs.nextDate(name);
    return this.options.runJobs && !this.queue ? null : nextRunOf(schedule, paused);
  }

  /** The ticks of the connection's sync or flow in this process, or null before its first. */
  ticksOf(connectionId: string, flow: ScheduledFlow): TickCounts | null {
    return this.ticks.of(connectionId, flow);
  }

  /**
   * Why no scheduled run fires now, or null while they fire. A daemon of one store fires its own (it is up: it
   * answers). The CLI runs no timers: its schedules are the daemons', so it looks at their heartbeats (a daemon of
   * this machine by its process: killed is gone at once). Cluster mode: the job schedulers live in Redis, which must
   * answer, and the CLI asks BullMQ whether any daemon works the runs queue.
   */
  async halted(): Promise<ScheduleHalt | null> {
    if (this.queue) {
      try {
        await this.queue.ping(REDIS_PING_MS);
      } catch (error) {
        return {
          reason: 'redis_unreachable',
          message: `the cluster's Redis (cluster.redis) is unreachable (${message(error)}): the schedules are not firing`,
          last_heartbeat_at: null,
        };
      }
      if (this.options.runJobs) return null;
      const workers = await this.queue.workerNames().catch(() => null);
      // CLIENT LIST refused (a managed Redis): who works the queue cannot be told, and nothing is claimed
      if (workers === null || workers.length > 0) return null;
      return { reason: 'no_daemon', message: 'no daemon is running (none works the cluster\'s runs queue): scheduled runs are not happening', last_heartbeat_at: null };
    }
    if (this.options.runJobs || !this.daemons) return null;
    const rows = await this.daemons.all();
    const now = Date.now();
    if (rows.some((row) => isLiveDaemon(row, this.heartbeat?.recentMs ?? DEFAULT_RECENT_MS, now))) return null;
    const last = rows[0]?.heartbeat_at ?? null;
    const when = last ? `last heartbeat ${durationText(now - Date.parse(last))} ago, at ${last}` : 'no daemon has a heartbeat in the store';
    return { reason: 'no_daemon', message: `no daemon is running (${when}): scheduled runs are not happening`, last_heartbeat_at: last };
  }

  hasJob(connectionId: string): boolean {
    return this.jobs.has(jobName(connectionId));
  }

  private apply(connection: ScheduledConnection): void {
    for (const flow of OUTBOUND_FLOW_NAMES) this.applyFlow(connection, flow);
    const name = jobName(connection.id);
    if (connection.paused || !connection.schedule) {
      this.jobs.remove(name);
      return;
    }
    try {
      this.jobs.add(name, connection.schedule, () => this.tick(connection.id));
    } catch (error) {
      this.logger.error(`connection ${connection.id}: schedule "${connection.schedule}" is not valid: ${message(error)}`);
    }
  }

  /**
   * An outbound flow with a cron of its own (e.g. `write_back.schedule`) gets its own job, paused with the
   * connection; without one it follows each successful sync (the engine starts it).
   */
  private applyFlow(connection: ScheduledConnection, flow: OutboundFlowName): void {
    const name = flowJobName(connection.id, flow);
    const schedule = this.flowSchedule(connection.id, flow);
    if (connection.paused || !schedule) {
      this.jobs.remove(name);
      return;
    }
    try {
      this.jobs.add(name, schedule, () => this.flowTick(connection.id, flow));
    } catch (error) {
      this.logger.error(`connection ${connection.id}: the ${flow} schedule "${schedule}" is not valid: ${message(error)}`);
    }
  }

  /** The flow's own schedule, or undefined (none, or a connection the config no longer has). */
  private flowSchedule(connectionId: string, flow: OutboundFlowName): string | undefined {
    try {
      return this.sync.outboundPlan(connectionId, flow)?.schedule;
    } catch {
      return undefined;
    }
  }

  private async flowTick(connectionId: string, flow: OutboundFlowName, runJobId?: string): Promise<void> {
    const stored = (await this.connections.get(connectionId).catch(() => null)) as ScheduledConnection | null;
    if (stored?.paused) return this.refresh(connectionId);
    // cluster mode keeps one follow-up per connection: a flow's tick never takes the place of a sync waiting
    if (runJobId && (await this.queue?.hasFollowUp(connectionId))) {
      this.ticks.record(connectionId, flow, 'skipped');
      this.logger.warn(`connection ${connectionId}: scheduled ${flow.replace('_', '-')} run skipped: a run already waits behind the one going`);
      return;
    }
    await this.startTick(connectionId, flow, { kind: 'outbound', flow }, runJobId);
  }

  /**
   * At start-up: `run_on_start` connections, and every connection whose last sync was left `interrupted` (a stop,
   * a crash): that one continues from its checkpoint now, whether or not it has a schedule. Paused ones wait.
   */
  private async startRunOnStart(): Promise<void> {
    const enabled = new Map((await this.listConnections()).map((c) => [c.id, !c.paused]));
    const due: { id: string; request: RunRequest }[] = [];
    for (const connection of this.config.connections) {
      if (!enabled.get(connection.id)) continue;
      // the last *sync*: outbound runs after it neither hide it nor, interrupted themselves, start one
      const last = await this.runs.latestOf(connection.id, { direction: 'sync' });
      if (last?.status === 'interrupted') {
        const request = resumed(last);
        this.logger.log(`connection ${connection.id}: run ${last.id} was interrupted; ${request.mode === 'incremental' ? 'resuming from its checkpoint' : `its ${describeResumed(request)} starts again`}`);
        due.push({ id: connection.id, request });
      } else if (connection.run_on_start) due.push({ id: connection.id, request: INCREMENTAL });
    }
    // as many as there are slots start now (awaited: their runs exist once the daemon is up); the rest in turn
    for (const { id, request } of due) {
      const slot = this.slots.tryTake();
      if (slot) await this.startRun(id, 'startup', slot, request);
      else void this.slots.take(`${id}:sync`).then((later) => later && this.startRun(id, 'startup', later, request));
    }
    if (this.slots.waiting > 0) {
      this.logger.log(`${this.slots.waiting} start-up runs wait for a slot: ${this.slots.limit} go at once (scheduler.concurrency)`);
    }
  }

  /** A tick reads the stored flag first: another process (the CLI, another daemon) may have paused the connection. */
  private async tick(connectionId: string, runJobId?: string): Promise<void> {
    const stored = (await this.connections.get(connectionId).catch(() => null)) as ScheduledConnection | null;
    if (stored?.paused) {
      this.logger.log(`connection ${connectionId}: paused (by the CLI or another daemon); its scheduled runs stop`);
      await this.refresh(connectionId);
      return;
    }
    await this.startTick(connectionId, 'sync', { kind: 'sync', mode: 'incremental', scheduledAt: scheduledSlot(stored?.schedule) ?? undefined }, runJobId);
  }

  /**
   * A tick's run, or, when the connection is busy (another flow of it, a webhook's sync), its run as soon as the
   * connection is free: at most one waiting per flow, so every flow keeps its schedule and none piles up.
   */
  private async startTick(connectionId: string, flow: ScheduledFlow, request: RunRequest, jobId?: string): Promise<void> {
    const firedAt = Date.now();
    const what = flow === 'sync' ? 'run' : `${flow.replace('_', '-')} run`;
    const key = `${connectionId}:${flow}`;
    // cluster mode: the runs queue's workers bound the runs going at once, and a tick job only adds a run job
    if (this.queue) return this.trigger(connectionId, flow, request, jobId, firedAt, () => undefined);
    if (this.slots.isWaiting(key)) {
      this.ticks.record(connectionId, flow, 'skipped');
      this.logger.warn(`connection ${connectionId}: scheduled ${what} skipped: one already waits for a slot (scheduler.concurrency ${this.slots.limit} runs at once)`);
      return;
    }
    const slot = await this.slots.take(key);
    if (!slot) return; // the daemon stops
    await this.trigger(connectionId, flow, request, jobId, firedAt, slot);
  }

  /** The tick's trigger; `slot` is given back when its run ends (or now, when it started none). */
  private async trigger(connectionId: string, flow: ScheduledFlow, request: RunRequest, jobId: string | undefined, firedAt: number, slot: ReleaseSlot): Promise<void> {
    const what = flow === 'sync' ? 'run' : `${flow.replace('_', '-')} run`;
    let done: Promise<unknown> | undefined;
    try {
      const outcome = await this.triggers.trigger({ connectionId, trigger: 'schedule', request, whenBusy: 'follow_up', jobId });
      if (outcome.status === 'started') {
        done = outcome.done;
        this.ticks.record(connectionId, flow, 'started');
        this.ticks.waited(connectionId, flow, Date.now() - firedAt);
        this.logger.log(`connection ${connectionId}: ${what} ${outcome.runId} started (schedule)`);
      } else if (outcome.status === 'skipped') {
        this.ticks.record(connectionId, flow, 'taken');
        this.logger.debug(`connection ${connectionId}: this tick's ${what} is taken by another daemon`);
      } else {
        this.ticks.record(connectionId, flow, outcome.joined ? 'skipped' : 'queued');
        const behind = `run ${outcome.runningRunId ?? '(starting)'}`;
        if (outcome.joined) this.logger.warn(`connection ${connectionId}: scheduled ${what} skipped: one is already waiting behind ${behind}`);
        else this.logger.log(`connection ${connectionId}: scheduled ${what} waits for ${behind} to end`);
        void outcome.started.then((runId) => runId !== null && this.ticks.waited(connectionId, flow, Date.now() - firedAt));
      }
    } catch (error) {
      // no run row says so (the store may have refused it): the tick's count does (tracker_sync_schedule_ticks_total{outcome="failed"})
      this.ticks.record(connectionId, flow, 'failed', message(error));
      this.logger.error(`connection ${connectionId}: scheduled ${what} could not start: ${message(error)}`);
    } finally {
      holdUntil(slot, done);
    }
  }

  /** A start-up run, not waited for; a run already going (another daemon's) is not an error: it is skipped. */
  private async startRun(connectionId: string, trigger: RunTrigger, slot: ReleaseSlot, request: RunRequest = INCREMENTAL): Promise<void> {
    let done: Promise<unknown> | undefined;
    try {
      const outcome = await this.triggers.trigger({ connectionId, trigger, request, whenBusy: 'skip' });
      if (outcome.status === 'started') {
        done = outcome.done;
        this.logger.log(`connection ${connectionId}: run ${outcome.runId} started (${trigger})`);
      } else this.logger.log(`connection ${connectionId}: ${trigger} run skipped, run ${outcome.runningRunId ?? '(starting)'} is going`);
    } catch (error) {
      this.logger.error(`connection ${connectionId}: ${trigger} run could not start: ${message(error)}`);
    } finally {
      holdUntil(slot, done);
    }
  }

  private async listConnections(): Promise<ScheduledConnection[]> {
    return (await this.connections.list()) as ScheduledConnection[];
  }
}

const INCREMENTAL: RunRequest = { kind: 'sync', mode: 'incremental' };

type SyncRequest = Extract<RunRequest, { kind: 'sync' }>;

/**
 * What an interrupted sync continues as. An incremental run (or a retry) goes on from its checkpoint. A full
 * resync, or one from a date, was asked for so that every record (from then) is sent again: it starts again whole,
 * since what it had not re-sent yet cannot be told from what it had (both have fingerprints).
 */
function resumed(run: { mode: string; since: string | null }): SyncRequest {
  if (run.mode === 'full') return { kind: 'sync', mode: 'full' };
  if (run.mode === 'since' && run.since) return { kind: 'sync', mode: 'since', since: run.since };
  return { kind: 'sync', mode: 'incremental' };
}

function describeResumed(request: SyncRequest): string {
  return request.mode === 'since' ? `run from ${request.since}` : 'full resync';
}

/** The slot is the run's until it ends (however it ends); a tick that started nothing gives it back now. */
function holdUntil(slot: ReleaseSlot, done: Promise<unknown> | undefined): void {
  if (done) void done.then(slot, slot);
  else slot();
}

/** 45s, 12m, 3h 5m, 2d 4h */
function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  return h % 24 ? `${Math.floor(h / 24)}d ${h % 24}h` : `${Math.floor(h / 24)}d`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
