import type { Logger } from '@nestjs/common';
import { RunJobProgress, RunQueue } from '../../cluster/run-queue';
import { RunInProgressError, RunSummary, SyncService } from '../../engine';
import type { JobCall, RunRequest, TriggerOutcome } from './run-trigger.service';

/** A burst of webhook calls that never pauses still runs after this many debounces (as WebhookDebouncer does). */
const WEBHOOK_MAX_WAIT_DEBOUNCES = 10;

/** A run job no daemon has taken after this long is said to wait (then again every minute), naming why. */
const WAITING_NOTICE_MS = 5_000;
const WAITING_REPEAT_MS = 60_000;

/** A job whose run has ended is closed within moments (its summary reported, BullMQ moving it): waited for this long. */
const CLOSING_WAIT_MS = 5_000;
const CLOSING_POLL_MS = 20;

/** Cluster mode: a run could not be queued because Redis does not answer (the admin API's 503). */
export class RunQueueUnavailableError extends Error {
  constructor(connectionId: string, cause: unknown) {
    super(`connection ${connectionId}: the run could not be queued: the cluster's Redis (cluster.redis) does not answer (${message(cause)})`);
    this.name = 'RunQueueUnavailableError';
  }
}

/**
 * The trigger path in cluster mode (RunTriggerService hands every call here): a call becomes a `run` job of the
 * run queue (src/cluster/run-queue.ts), which keeps one run per connection and its one follow-up.
 */
export class QueuedRuns {
  constructor(
    private readonly queue: RunQueue,
    private readonly sync: SyncService,
    private readonly logger: Logger,
  ) {}

  /**
   * Added: the run starts on whichever daemon takes the job (this answers once its run is recorded).
   * Deduplicated against the connection's job: `refuse` and `skip` answer as for a run going; `follow_up` leaves
   * the request as the one that follows the active job (or joins the job waiting). A follow-up's `started`
   * resolves null at once: it starts on some daemon's worker.
   */
  async enqueue(call: JobCall): Promise<TriggerOutcome> {
    const { connectionId, trigger, request } = call;
    const whenBusy = call.whenBusy ?? 'refuse';
    if (request.kind === 'outbound') this.sync.checkRequest(connectionId, { flow: request.flow });
    else if (request.kind === 'sync') this.sync.checkRequest(connectionId, { ...request, trigger });
    const followUp = whenBusy === 'follow_up';
    // a tick's instant is the lease's business; in cluster mode the job scheduler makes one job per tick
    const data = { connectionId, trigger, request: request.kind === 'sync' ? { ...request, scheduledAt: undefined } : request };
    let hadFollowUp: boolean;
    let queued: { jobId: string; added: boolean };
    const add = () => this.queue.addRun(data, { followUp, jobId: call.jobId });
    try {
      hadFollowUp = followUp && (await this.queue.hasFollowUp(connectionId));
      queued = await add();
      // a client who saw the run end and asks for the next one is not refused while the job is being closed
      if (!queued.added && whenBusy === 'refuse' && (await this.closing(queued.jobId, connectionId))) queued = await add();
    } catch (error) {
      throw new RunQueueUnavailableError(connectionId, error);
    }
    const { jobId, added } = queued;
    if (added) return { status: 'started', ...(await this.jobRun(jobId, connectionId)) };
    const job = await this.queue.queue.getJob(jobId);
    const progress = job?.progress as { runId?: number } | undefined;
    const runningRunId = typeof progress?.runId === 'number' ? progress.runId : null;
    if (whenBusy === 'refuse') throw new RunInProgressError(connectionId, runningRunId);
    if (whenBusy === 'skip') return { status: 'skipped', reason: 'running', runningRunId };
    const active = (await job?.getState()) === 'active';
    if (!hadFollowUp && active) this.logger.log(`connection ${connectionId}: a ${trigger} run follows the one going`);
    return { status: 'queued', runningRunId, joined: hadFollowUp || !active, started: Promise.resolve(null) };
  }

  /** A webhook call (re)arms the connection's debounce, whichever daemon it reached. Rejects while Redis is away. */
  debounceWebhook(connectionId: string, debounceMs: number): Promise<void> {
    return this.queue.debounceHook(connectionId, debounceMs, debounceMs * WEBHOOK_MAX_WAIT_DEBOUNCES);
  }

  /** Whether a sync waits behind the connection's run going, and whether its webhook debounce runs (null: Redis away). */
  async webhookState(connectionId: string): Promise<{ followUpQueued: boolean | null; runDue: boolean | null }> {
    const [waiting, due] = await Promise.all([
      this.queue.followUp(connectionId).then((data) => (data?.request as RunRequest | undefined)?.kind === 'sync', () => null),
      this.queue.hookDue(connectionId).catch(() => null),
    ]);
    return { followUpQueued: waiting, runDue: due };
  }

  /**
   * Whether the connection's job was closing: its run ended (the connection's newest run row reads so), while its
   * worker still reports the summary and BullMQ moves the job on; the job holds the connection until then. Waits
   * for that, at most CLOSING_WAIT_MS; false at once when no run of the job was recorded yet or a run goes.
   */
  private async closing(jobId: string, connectionId: string): Promise<boolean> {
    const job = await this.queue.queue.getJob(jobId);
    if (typeof (job?.progress as { runId?: unknown } | undefined)?.runId !== 'number') return false;
    for (const until = Date.now() + CLOSING_WAIT_MS; Date.now() < until; await sleep(CLOSING_POLL_MS)) {
      // a run going (a write-back after the sync, the job's next attempt) holds the connection for good reason
      if (!(await this.sync.lastRunEnded(connectionId))) return false;
      if ((await job!.getState()) !== 'active') return true;
    }
    return false;
  }

  /** A `run` job's run: its id once a worker recorded it, and its summary once it ended. */
  private async jobRun(jobId: string, connectionId: string): Promise<{ runId: number; done: Promise<RunSummary> }> {
    const first = await this.untilTaken(jobId, connectionId);
    if (!first.progress) throw new Error(`run job ${jobId} ended before its run started${first.failedReason ? `: ${first.failedReason}` : ''}`);
    const { runId } = first.progress;
    const done = this.queue.progress<RunSummary>(jobId, (p) => p.runId !== runId || !!p.summary).then(({ progress, failedReason }) => {
      if (progress?.summary && progress.runId === runId) return progress.summary;
      if (progress) return this.sync.runSummary(runId); // taken over by another daemon: this run ended there
      throw new Error(`run ${runId} (job ${jobId}) ended without its summary${failedReason ? `: ${failedReason}` : ''}`);
    });
    done.catch(() => undefined);
    return { runId, done };
  }

  /**
   * The job's first progress: its run, recorded by the daemon that took it. The CLI takes no jobs: with every
   * daemon down (or every slot busy) it would wait without a word, so after a few seconds it says what it waits for.
   */
  private async untilTaken(jobId: string, connectionId: string): Promise<{ progress: RunJobProgress<RunSummary> | null; failedReason?: string }> {
    const say = async () => {
      const workers = await this.queue.workerCount().catch(() => null);
      const why =
        workers === 0 ? 'no daemon of the cluster is taking runs now; it starts when one does'
        : workers === null ? "the cluster's Redis does not answer"
        : `every run slot of the ${workers} daemon${workers === 1 ? '' : 's'} taking runs is busy`;
      this.logger.warn(`connection ${connectionId}: the run waits in the cluster's queue (job ${jobId}): ${why}`);
    };
    let timer = setTimeout(function notice() {
      void say();
      timer = setTimeout(notice, WAITING_REPEAT_MS);
    }, WAITING_NOTICE_MS);
    try {
      return await this.queue.progress<RunSummary>(jobId, () => true);
    } finally {
      clearTimeout(timer);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
