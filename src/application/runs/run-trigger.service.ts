import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { EngineStoppingError, RunInProgressError, RunSummary, RunTrigger, ScheduledSlotTakenError, SyncService } from '../../engine';
import { RunQueue } from '../../cluster/run-queue';
import { QueuedRuns } from './queued-runs';
import type { StreamName } from '../../connectors/canonical';
import { OUTBOUND_FLOW_NAMES } from '../flow-descriptions';

const RUN_ID_WAIT_MS = 2_000;
/** A follow-up whose connection runs in another process (its lease) is tried again this often. */
const FOLLOW_UP_RETRY_MS = 1_000;

/** What a trigger asks for: a sync (read the source, send to the service) or an outbound flow (the other way). */
export type RunRequest =
  | { kind: 'sync'; mode: 'incremental' | 'full' | 'since'; since?: string; onlyStreams?: StreamName[]; scheduledAt?: Date }
  | { kind: 'outbound'; flow: string };

/** What a run job may carry: a trigger's request, or (`retryRejected`) the unresolved rejected records of a run. */
type JobRequest = RunRequest | { kind: 'retry'; runId: number };

/** A call as the run queue carries it (cluster mode). */
export interface JobCall extends Omit<TriggerCall, 'request'> {
  request: JobRequest;
}

/**
 * What a trigger wants when the connection already runs:
 * - `refuse`: RunInProgressError (naming the running run): the admin API answers 409, the CLI says so;
 * - `skip`: nothing happens (a timer: its next tick comes anyway);
 * - `follow_up`: exactly one run of this request starts once the current one ends (a webhook: a call is never lost).
 */
export type WhenBusy = 'refuse' | 'skip' | 'follow_up';

export interface TriggerCall {
  connectionId: string;
  trigger: RunTrigger;
  request: RunRequest;
  whenBusy?: WhenBusy;
  /** cluster mode: the run job's id (a scheduler's tick names it after itself, so a tick asks for one run, once) */
  jobId?: string;
}

export type TriggerOutcome =
  | { status: 'started'; runId: number; done: Promise<RunSummary> }
  /** `skip`: a run is going (or, for a scheduled tick, this tick ran already: `slot_taken`) */
  | { status: 'skipped'; reason: 'running' | 'slot_taken'; runningRunId: number | null }
  /**
   * `follow_up`: one run of the request will start when the current one ends (a second call joins the first:
   * `joined`); `started` resolves with its run id when it starts, or null when it never does (stopping, an error,
   * its scheduled tick run by another daemon).
   */
  | { status: 'queued'; runningRunId: number | null; joined: boolean; started: Promise<number | null> };

/** A follow-up waiting for its connection: the call, and whoever waits for it to start. */
interface FollowUp {
  call: TriggerCall;
  started: Promise<number | null>;
  settle: (runId: number | null) => void;
}

/**
 * The one way a run starts, whoever asks (admin API, CLI, scheduler, start-up, webhooks), for syncs and outbound
 * flows alike. It is the one place that knows "a run is going" (RunInProgressError) and what each trigger wants
 * then (WhenBusy); it keeps at most one follow-up per connection and request, started when the current run ends.
 * A successful sync is followed here by each outbound flow of the connection without a schedule of its own.
 *
 * Cluster mode (`cluster.redis`): every call becomes a `run` job of the run queue (src/cluster/run-queue.ts),
 * which some daemon's worker takes and runs here through `runHere`; the queue, not this process, keeps one run
 * per connection and its one follow-up (the in-memory follow-ups below are not used).
 */
@Injectable()
export class RunTriggerService implements OnModuleDestroy {
  private readonly logger = new Logger('RunTrigger');
  /** connection id → request key → the follow-up */
  private readonly followUps = new Map<string, Map<string, FollowUp>>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly onFinished = (summary: RunSummary) => {
    // after the engine's own follow-on (a write-back after a sync) has claimed the connection, if it does
    if (this.followUps.has(summary.connectionId)) setImmediate(() => void this.startFollowUps(summary.connectionId));
  };

  /** cluster mode: the runs as jobs of the run queue */
  private readonly queued: QueuedRuns | null;

  constructor(
    private readonly sync: SyncService,
    @Optional() @Inject(RunQueue) runQueue: RunQueue | null = null,
  ) {
    sync.events.on('finished', this.onFinished);
    this.queued = runQueue ? new QueuedRuns(runQueue, sync, this.logger) : null;
  }

  /** Cluster mode: runs are jobs of the run queue. */
  get inCluster(): boolean {
    return !!this.queued;
  }

  onModuleDestroy(): void {
    this.sync.events.off('finished', this.onFinished);
    for (const timer of this.retryTimers) clearTimeout(timer);
    for (const calls of this.followUps.values()) for (const followUp of calls.values()) followUp.settle(null);
    this.followUps.clear();
  }

  /** Starts the run asked for, or does what the caller wants when one is going (see WhenBusy). */
  async trigger(call: TriggerCall): Promise<TriggerOutcome> {
    if (this.queued) return this.queued.enqueue(call);
    const whenBusy = call.whenBusy ?? 'refuse';
    try {
      return this.started(call.connectionId, await this.launch(call));
    } catch (error) {
      if (!(error instanceof RunInProgressError)) throw error;
      if (whenBusy === 'refuse') throw error.runId === null ? await this.withRunningId(error) : error;
      // a scheduled tick another daemon ran (or runs) is done: nothing follows it
      if (error instanceof ScheduledSlotTakenError) return { status: 'skipped', reason: 'slot_taken', runningRunId: error.runId };
      if (whenBusy === 'skip') return { status: 'skipped', reason: 'running', runningRunId: error.runId };
      const { joined, followUp } = this.queue(call);
      return { status: 'queued', runningRunId: error.runId, joined, started: followUp.started };
    }
  }

  /** `trigger` with `refuse`: the run started, or RunInProgressError naming the one going. */
  async start(connectionId: string, trigger: RunTrigger, request: RunRequest): Promise<{ runId: number; done: Promise<RunSummary> }> {
    const outcome = await this.trigger({ connectionId, trigger, request, whenBusy: 'refuse' });
    if (outcome.status !== 'started') throw new RunInProgressError(connectionId, outcome.runningRunId);
    return outcome;
  }

  /**
   * Re-sends the unresolved rejected records of a run (mode retry): a run of that run's connection. A run going
   * is refused (RunInProgressError).
   */
  /** How many records a retry of the run sends again (the CLI says so before the run's own line does). */
  retryCount(runId: number): Promise<number> {
    return this.sync.retryCount(runId);
  }

  async retryRejected(runId: number, trigger: RunTrigger): Promise<{ runId: number; done: Promise<RunSummary> }> {
    if (this.queued) {
      const connectionId = await this.sync.connectionOfRun(runId);
      if (!connectionId) return this.sync.retryRejected(runId, trigger); // its "no such run" error
      const outcome = await this.queued.enqueue({ connectionId, trigger, request: { kind: 'retry', runId }, whenBusy: 'refuse' });
      if (outcome.status !== 'started') throw new RunInProgressError(connectionId, outcome.runningRunId);
      return outcome;
    }
    try {
      const started = await this.sync.retryRejected(runId, trigger);
      this.watch(started.runId, started.done);
      return started;
    } catch (error) {
      if (error instanceof RunInProgressError && error.runId === null) throw await this.withRunningId(error);
      throw error;
    }
  }

  /** Cluster mode: a webhook call (re)arms the connection's debounce in the run queue (QueuedRuns). */
  debounceWebhook(connectionId: string, debounceMs: number): Promise<void> {
    if (!this.queued) throw new Error('debounceWebhook is for cluster mode');
    return this.queued.debounceWebhook(connectionId, debounceMs);
  }

  /**
   * Whether a sync waits behind the connection's run going (a webhook's, or a scheduled tick's it joined), and
   * whether its webhook debounce runs (cluster mode: in the run queue; else the receiver's own, `localDue`).
   * Null for either when Redis does not answer.
   */
  webhookState(connectionId: string, localDue: boolean): Promise<{ followUpQueued: boolean | null; runDue: boolean | null }> {
    if (this.queued) return this.queued.webhookState(connectionId);
    return Promise.resolve({ followUpQueued: this.queuedFollowUps(connectionId).some((request) => request.kind === 'sync'), runDue: localDue });
  }

  /** The follow-ups waiting for a connection's run to end (for the status page and tests). */
  queuedFollowUps(connectionId: string): RunRequest[] {
    return [...(this.followUps.get(connectionId)?.values() ?? [])].map((followUp) => followUp.call.request);
  }

  /**
   * Cluster mode: the run of a `run` job, in this process (the worker calls it). RunInProgressError only when
   * this daemon still runs the connection (a job taken over while its first run goes on here).
   */
  async runHere(call: JobCall): Promise<{ runId: number; done: Promise<RunSummary> }> {
    const run = await this.launch(call);
    this.watch(run.runId, run.done, call.connectionId);
    return run;
  }

  private async launch(call: JobCall): Promise<{ runId: number; done: Promise<RunSummary> }> {
    const { connectionId, trigger, request } = call;
    if (request.kind === 'retry') return this.sync.retryRejected(request.runId, trigger);
    if (request.kind === 'outbound') return this.sync.outbound(connectionId, request.flow, trigger);
    const { kind: _kind, ...options } = request;
    const run = await this.sync.start(connectionId, { ...options, trigger });
    return { runId: run.runId, done: run.done.then((summary) => this.followWithOutbound(summary)) };
  }

  /**
   * A successful sync is followed by each outbound flow of its connection without a schedule of its own
   * (write-back), one after the other, before the 'finished' event's follow-ups (a microtask comes before their
   * setImmediate); the sync's `done` resolves once they are over too (in `followedBy`).
   */
  private async followWithOutbound(summary: RunSummary): Promise<RunSummary> {
    if (summary.status !== 'succeeded' || summary.direction === 'outbound') return summary;
    const { connectionId } = summary;
    const followers: RunSummary[] = [];
    for (const flow of OUTBOUND_FLOW_NAMES) {
      try {
        // the connection as it is now (a config reload may have changed or removed it since the sync began)
        const plan = this.sync.outboundPlan(connectionId, flow);
        if (!plan || plan.schedule) continue;
        const next = await this.sync.outbound(connectionId, flow, summary.trigger);
        this.watch(next.runId, next.done, connectionId);
        followers.push(await next.done);
      } catch (error) {
        if (error instanceof EngineStoppingError) break;
        if (error instanceof RunInProgressError) {
          // another run took the connection first (a queued tick): this flow follows it instead of being lost
          this.queue({ connectionId, trigger: summary.trigger, request: { kind: 'outbound', flow } });
          continue;
        }
        this.logger.warn(`connection ${connectionId}: the ${flow.replace('_', '-')} after this sync did not start: ${message(error)}`);
      }
    }
    return followers.length ? { ...summary, followedBy: chain(followers) } : summary;
  }

  private started(connectionId: string, run: { runId: number; done: Promise<RunSummary> }): TriggerOutcome {
    this.watch(run.runId, run.done, connectionId);
    return { status: 'started', runId: run.runId, done: run.done };
  }

  /**
   * Queues the call behind the run going. A call whose request already waits joins it (the newer call's trigger
   * and tick are the ones run): never more than one waiting per request, so a busy connection never piles up.
   * A call that waited and met another run again keeps its place at the back (`followUp`), so flows take turns.
   */
  private queue(call: TriggerCall, waited?: FollowUp): { joined: boolean; followUp: FollowUp } {
    const calls = this.followUps.get(call.connectionId) ?? new Map<string, FollowUp>();
    const key = requestKey(call.request);
    const waiting = calls.get(key);
    if (waiting && waited) {
      // a newer call of the request came meanwhile: one run for both
      waiting.call = joinedCall(call, waiting.call);
      void waiting.started.then(waited.settle);
    } else if (waiting) waiting.call = joinedCall(waiting.call, call);
    else {
      if (!waited) this.logger.log(`connection ${call.connectionId}: a ${call.trigger} run follows the one going`);
      calls.set(key, waited ?? newFollowUp(call));
    }
    this.followUps.set(call.connectionId, calls);
    // the run going may have ended between the refusal and now: then no 'finished' event comes for it
    if (!this.sync.isRunning(call.connectionId)) this.retryLater(call.connectionId);
    return { joined: !!waiting, followUp: calls.get(key)! };
  }

  /** The connection's run ended: its follow-ups start, one after the other (each waits for the one before). */
  private async startFollowUps(connectionId: string): Promise<void> {
    const calls = this.followUps.get(connectionId);
    const followUp = calls?.values().next().value;
    if (!calls || !followUp) return;
    const { call } = followUp;
    calls.delete(requestKey(call.request));
    if (calls.size === 0) this.followUps.delete(connectionId);
    try {
      const run = await this.launch(call);
      this.started(connectionId, run);
      followUp.settle(run.runId);
      this.logger.log(`connection ${connectionId}: follow-up run ${run.runId} started (${call.trigger})`);
      return;
    } catch (error) {
      if (error instanceof ScheduledSlotTakenError) {
        this.logger.debug(`connection ${connectionId}: ${error.message}; its follow-up is dropped`);
      } else if (error instanceof RunInProgressError) {
        this.queue(call, followUp); // another run took the connection first: this one still follows
        return;
      } else if (!(error instanceof EngineStoppingError)) {
        this.logger.error(`connection ${connectionId}: the follow-up ${call.trigger} run could not start: ${message(error)}`);
      }
    }
    followUp.settle(null);
    // nothing started, so no 'finished' event will come for the follow-ups still waiting
    if (this.followUps.has(connectionId)) setImmediate(() => void this.startFollowUps(connectionId));
  }

  /** A run of another process (its lease) ends without an event here: try again shortly. */
  private retryLater(connectionId: string): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (!this.sync.isRunning(connectionId)) void this.startFollowUps(connectionId);
    }, FOLLOW_UP_RETRY_MS);
    timer.unref();
    this.retryTimers.add(timer);
  }

  /**
   * A trigger that lands while the other run is still being recorded learns no id from the engine;
   * a refusal must name the running run, so wait (briefly) until the engine knows it.
   */
  private async withRunningId(error: RunInProgressError): Promise<RunInProgressError> {
    const deadline = Date.now() + RUN_ID_WAIT_MS;
    while (Date.now() < deadline) {
      const runId = this.sync.runningRunId(error.connectionId);
      if (runId !== null) return new RunInProgressError(error.connectionId, runId);
      if (!this.sync.isRunning(error.connectionId)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return error;
  }

  /** The run's outcome is in the store; here only an unexpected rejection needs a log line. */
  private watch(runId: number, done: Promise<RunSummary>, connectionId?: string): void {
    done.catch((error: unknown) => this.logger.error(`${connectionId ? `connection ${connectionId}: ` : ''}run ${runId}: ${message(error)}`));
  }
}

/**
 * Of two calls of one request, the one that runs: the newer (its trigger, its scheduled tick), unless the older
 * claims no tick and the newer does: a tick may be dropped (another daemon ran it), a webhook's call may not.
 */
function joinedCall(older: TriggerCall, newer: TriggerCall): TriggerCall {
  return !tickOf(older) && tickOf(newer) ? older : newer;
}

function tickOf(call: TriggerCall): Date | undefined {
  return call.request.kind === 'sync' ? call.request.scheduledAt : undefined;
}

function newFollowUp(call: TriggerCall): FollowUp {
  let settle!: (runId: number | null) => void;
  const started = new Promise<number | null>((resolve) => (settle = resolve));
  return { call, started, settle };
}

/** Runs that followed one another: the first, with the next in its `followedBy`, and so on. */
function chain(runs: RunSummary[]): RunSummary | undefined {
  return runs.reduceRight<RunSummary | undefined>((after, run) => (after ? { ...run, followedBy: after } : run), undefined);
}

function requestKey(request: RunRequest): string {
  return request.kind === 'outbound' ? `outbound:${request.flow}` : `sync:${request.mode}:${request.since ?? ''}`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
