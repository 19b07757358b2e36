/**
 * Cluster mode's queues (BullMQ, Redis keys `tracker-sync:<queue>:*`):
 * - `runs`: every run is a `run` job: one run of one connection (a sync or an outbound flow, whoever asked),
 *   deduplicated per connection;
 * - `triggers`: what asks for runs: a job scheduler's `tick` of a connection's (or a flow's) schedule, and `hook`,
 *   a connection's debounced webhook calls. Their worker hands them to the one trigger path, which adds a `run`
 *   job and waits for it to start: on a queue of their own, a tick waiting for its run never holds a slot
 *   its run needs.
 *
 * One run per connection across the cluster, and one follow-up, never a pile: every `run` job carries the
 * deduplication id `run:<connection>`. While that job waits, a new trigger joins it (BullMQ deduplicates
 * the add). While it is active, a trigger that wants a follow-up adds with `keepLastIfActive`: BullMQ keeps
 * that one request (the latest) and makes it a job when the active one finishes, so the connection never has
 * two `run` jobs going and at most one waiting behind the one going.
 */
import type { ConnectionOptions, JobsOptions, Queue, QueueEvents } from 'bullmq';
import type IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { redisConnectionOptions } from '../redis/redis-connection';
import { queueReady } from './queue-ready';
import { queueWorkers } from './queue-workers';

export const RUN_QUEUE = 'runs';
export const TRIGGER_QUEUE = 'triggers';
export const QUEUE_PREFIX = 'tracker-sync';

/** What a `run` job runs: the trigger path's call (its request as the trigger path describes it). */
export interface RunJobData<R = unknown> {
  connectionId: string;
  trigger: string;
  request: R;
}

/** A scheduler's tick: of the connection's sync (`sync`) or of one of its flows with a schedule of its own. */
export interface TickJobData {
  connectionId: string;
  flow: string;
}

/** The debounced webhook calls of a connection; `firstAt`: the burst's first call (epoch ms). */
export interface HookJobData {
  connectionId: string;
  firstAt: number;
}

/** What a `run` job reports: its run's id once recorded, then (`summary`) the run as it ended. */
export interface RunJobProgress<S = unknown> {
  runId: number;
  summary?: S;
}

/**
 * Retries of a failed (or interrupted) run: three attempts in all, the job's exponential backoff starting at
 * `cluster.stalled_after` (default 30 s, then 60 s): the time the cluster takes to notice a dead daemon is also a
 * fair pause before trying a failed run again.
 */
export const RUN_ATTEMPTS = 3;

/** Finished jobs kept this long: a tick's run job id is taken once (see `runJobIdOfTick`), and the dashboard shows them. */
const KEEP_FINISHED = { age: 24 * 3600, count: 5_000 };

export const runDedupId = (connectionId: string): string => `run:${connectionId}`;
const hookDedupId = (connectionId: string): string => `hook:${connectionId}`;

/**
 * The BullMQ side of the trigger path: adds jobs, reads their progress, keeps the job schedulers. The worker
 * that takes the jobs is the scheduler's (`src/scheduler/run-worker.ts`): the CLI adds jobs and takes none.
 */
export class RunQueue {
  readonly queue: Queue;
  readonly triggers: Queue;
  private events?: QueueEvents;
  private readonly waiters = new Map<string, Set<(event: JobEvent) => void>>();

  constructor(
    readonly redisUrl: string,
    /** `cluster.stalled_after` in ms: the first retry's backoff */
    private readonly backoffMs: number,
  ) {
    // adds fail at once while Redis is away (the caller answers or retries) instead of hanging
    const connection: ConnectionOptions = { ...redisConnectionOptions(redisUrl), enableOfflineQueue: false };
    const bullmq = loadBullmq();
    this.queue = new bullmq.Queue(RUN_QUEUE, { prefix: QUEUE_PREFIX, connection });
    this.triggers = new bullmq.Queue(TRIGGER_QUEUE, { prefix: QUEUE_PREFIX, connection });
    // a connection drop: the health check reports it, ioredis reconnects
    this.queue.on('error', () => undefined);
    this.triggers.on('error', () => undefined);
  }

  /**
   * Adds a run job. `followUp`: when the connection's job is active, keep this request as the one that follows
   * it. Answers the id of the connection's job: this one (`added`) or the one it was deduplicated against.
   */
  async addRun(data: RunJobData, options: { followUp: boolean; jobId?: string }): Promise<{ jobId: string; added: boolean }> {
    const jobId = options.jobId ?? randomUUID();
    await queueReady(this.queue);
    const job = await this.queue.add('run', data, {
      jobId,
      attempts: RUN_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.backoffMs },
      deduplication: { id: runDedupId(data.connectionId), ...(options.followUp ? { keepLastIfActive: true } : {}) },
      removeOnComplete: KEEP_FINISHED,
      removeOnFail: KEEP_FINISHED,
    });
    return { jobId: job.id!, added: job.id === jobId };
  }

  /** Whether a request already waits behind the connection's active job (a follow-up). */
  async hasFollowUp(connectionId: string): Promise<boolean> {
    return (await this.followUp(connectionId)) !== null;
  }

  /** The request waiting behind the connection's active `run` job (the follow-up), or null. */
  async followUp(connectionId: string): Promise<RunJobData | null> {
    await queueReady(this.queue);
    const client = (await this.queue.client) as unknown as IORedis;
    const data = await client.hget(`${QUEUE_PREFIX}:${RUN_QUEUE}:dn:${runDedupId(connectionId)}`, 'data');
    return data ? (JSON.parse(data) as RunJobData) : null;
  }

  /** How many daemons take runs now (BullMQ's workers of the `runs` queue on this Redis database). */
  async workerCount(): Promise<number> {
    await queueReady(this.queue);
    return (await queueWorkers(this.queue, redisConnectionOptions(this.redisUrl).db ?? 0)).length;
  }

  /** The names of the workers of the `runs` queue: each daemon's holder id (as on its run rows). */
  async workerNames(): Promise<string[]> {
    await queueReady(this.queue);
    const names = (await queueWorkers(this.queue, redisConnectionOptions(this.redisUrl).db ?? 0)).map((client) => {
      const raw = client.rawname ?? client.name ?? '';
      const at = raw.indexOf(':w:');
      return at >= 0 ? raw.slice(at + 3) : raw;
    });
    return [...new Set(names)];
  }

  /** Throws unless Redis answers a PING within `timeoutMs` (the schedules fire only while it does). */
  async ping(timeoutMs = 1_000): Promise<void> {
    await queueReady(this.triggers, timeoutMs);
    const client = (await this.triggers.client) as unknown as IORedis;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs)));
    try {
      await Promise.race([client.ping(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether the connection's webhook debounce runs (a `hook` job is due). */
  async hookDue(connectionId: string): Promise<boolean> {
    await queueReady(this.triggers);
    return !!(await this.triggers.getDeduplicationJobId(hookDedupId(connectionId)));
  }

  /**
   * A webhook call: (re)arms the connection's debounce, one `hook` job `debounceMs` after the burst's last call
   * (BullMQ's debounce: deduplication with ttl, extend and replace), whichever daemon the call reached. A burst
   * that never pauses still fires `maxWaitMs` after its first call.
   */
  async debounceHook(connectionId: string, debounceMs: number, maxWaitMs: number): Promise<void> {
    await queueReady(this.triggers);
    const now = Date.now();
    const pendingId = await this.triggers.getDeduplicationJobId(hookDedupId(connectionId));
    const pending = pendingId ? await this.triggers.getJob(pendingId) : undefined;
    const firstAt = (pending?.data as HookJobData | undefined)?.firstAt ?? now;
    const delay = Math.max(0, Math.min(debounceMs, firstAt + maxWaitMs - now));
    await this.triggers.add('hook', { connectionId, firstAt } satisfies HookJobData, {
      delay,
      deduplication: { id: hookDedupId(connectionId), ttl: Math.max(delay, 1), extend: true, replace: true },
      removeOnComplete: true,
      removeOnFail: KEEP_FINISHED,
    });
  }

  /**
   * Resolves with the job's progress once `accept` takes it; with null when the job ended without such progress
   * (it completed, or failed for good: then `failedReason`).
   */
  async progress<S>(jobId: string, accept: (progress: RunJobProgress<S>) => boolean): Promise<{ progress: RunJobProgress<S> | null; failedReason?: string }> {
    const events = this.eventsStream();
    return new Promise((resolve, reject) => {
      const set = this.waiters.get(jobId) ?? new Set();
      this.waiters.set(jobId, set);
      const done = (value: { progress: RunJobProgress<S> | null; failedReason?: string }) => {
        set.delete(listener);
        if (set.size === 0) this.waiters.delete(jobId);
        resolve(value);
      };
      const listener = (event: JobEvent) => {
        if (event.kind === 'progress' && isProgress<S>(event.data) && accept(event.data)) done({ progress: event.data });
        else if (event.kind === 'completed') done({ progress: null });
        else if (event.kind === 'failed') done({ progress: null, failedReason: event.reason });
      };
      set.add(listener);
      // what happened before the listener: read the job as it is now
      void events
        .waitUntilReady()
        .then(() => this.queue.getJob(jobId))
        .then(async (job) => {
          if (!job) return done({ progress: null, failedReason: `job ${jobId} is gone` });
          if (isProgress<S>(job.progress) && accept(job.progress)) return done({ progress: job.progress });
          const state = await job.getState();
          if (state === 'completed') done({ progress: null });
          else if (state === 'failed') done({ progress: null, failedReason: job.failedReason });
        })
        .catch((error: unknown) => {
          set.delete(listener);
          reject(error);
        });
    });
  }

  /** The job schedulers now in Redis: id → pattern. */
  async schedulers(): Promise<Map<string, string>> {
    await queueReady(this.triggers);
    const list = await this.triggers.getJobSchedulers(0, -1, true);
    return new Map(list.map((s) => [s.key, s.pattern ?? '']));
  }

  upsertScheduler(id: string, pattern: string, data: TickJobData): Promise<unknown> {
    const opts: Omit<JobsOptions, 'jobId' | 'repeat' | 'delay' | 'deduplication' | 'debounce'> = { removeOnComplete: KEEP_FINISHED, removeOnFail: KEEP_FINISHED };
    return this.triggers.upsertJobScheduler(id, { pattern }, { name: 'tick', data, opts });
  }

  removeScheduler(id: string): Promise<boolean> {
    return this.triggers.removeJobScheduler(id);
  }

  /** Calls `listener` each time the queue's connection to Redis is ready again after a drop. */
  onReconnect(listener: () => void): void {
    let dropped = false;
    void this.triggers.client.then((client) => {
      client.on('close', () => (dropped = true));
      client.on('ready', () => {
        if (!dropped) return;
        dropped = false;
        listener();
      });
    }).catch(() => undefined);
  }

  /** Nest calls it (the queue is a provider of RunTriggerModule in cluster mode). */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    for (const [jobId, set] of this.waiters) for (const listener of set) listener({ kind: 'failed', jobId, reason: 'the daemon is stopping' });
    await this.events?.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    await this.triggers.close().catch(() => undefined);
  }

  private eventsStream(): QueueEvents {
    if (this.events) return this.events;
    const events: QueueEvents = new (loadBullmq().QueueEvents)(RUN_QUEUE, { prefix: QUEUE_PREFIX, connection: redisConnectionOptions(this.redisUrl) });
    events.on('error', () => undefined);
    const emit = (event: JobEvent) => this.waiters.get(event.jobId)?.forEach((listener) => listener(event));
    events.on('progress', ({ jobId, data }) => emit({ kind: 'progress', jobId, data }));
    events.on('completed', ({ jobId }) => emit({ kind: 'completed', jobId }));
    events.on('failed', ({ jobId, failedReason }) => emit({ kind: 'failed', jobId, reason: failedReason }));
    this.events = events;
    return events;
  }
}

type JobEvent =
  | { kind: 'progress'; jobId: string; data: unknown }
  | { kind: 'completed'; jobId: string }
  | { kind: 'failed'; jobId: string; reason: string };

function isProgress<S>(value: unknown): value is RunJobProgress<S> {
  return typeof value === 'object' && value !== null && typeof (value as RunJobProgress).runId === 'number';
}

/** bullmq, required only in cluster mode: a daemon without cluster.redis, and every CLI run, goes without it. */
export function loadBullmq(): typeof import('bullmq') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('bullmq') as typeof import('bullmq');
}
