import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { closeReadPools } from './offload/offload-pool';
import { ConnectionConfig } from '../config/config.schema';
import { projectNameOf } from '../config/project-targets';
import type { StreamName } from '../connectors/canonical';
import { RunStore } from '../store/repositories/run.store';
import { ConnectionLookup } from './connection/connection-lookup';
import { ConnectionPreview } from './connection/connection-preview';
import { EngineStoppingError, errorText, InvalidRunOptionsError, LeaseLostError, RunInProgressError } from './engine-errors';
import { EngineLogger, runScopedLogger } from './engine-logger';
import { EngineSettings } from './engine-settings';
import { PreviewOptions, PreviewResult, RunSummary, RunTrigger, StartRunOptions } from './engine-types';
import { RejectionRetry } from './run/rejection-retry';
import { RunFailure, RunFailures } from './run/run-failures';
import { LaunchedRun, RunLauncher } from './run/run-launcher';
import { RunLeases } from './run/run-leases';
import { lastingFailure, RunOutcome } from './run/run-executor';
import { validateStartOptions } from './run/run-options';
import { RunEvents } from './run/run-events';
import { RunProgress } from './run/run-progress';
import { summaryLine } from './summary-line';
import type { OutboundFlowName } from '../runs/outbound-flows';
import { isOutboundFlow, OUTBOUND_FLOW_NAMES } from './outbound/flows/registry';
import type { FlowEstimate, FlowPlan } from './outbound/outbound-flow';
import { OutboundLauncher } from './outbound/outbound-launcher';

export type { RunFailure } from './run/run-failures';

const JOB_LOCK_LOST = "stopped at its last checkpoint: this daemon could no longer be sure it held the run's job (its lock in cluster.redis); the job resumes from the checkpoint";

interface ActiveRun {
  runId: number | null;
  abort: AbortController;
  done?: Promise<RunSummary>;
  leaseLost?: boolean;
  /** cluster mode: this daemon may no longer hold the run's job (claimLost) */
  claimLost?: boolean;
  /**
   * its end is being recorded: the row may read ended while the lease and the slot are let go a moment later, so a
   * start waits for that instead of answering "already running" to a client who saw the run end
   */
  ending?: boolean;
}

interface InternalStart extends StartRunOptions {
  onlyIds?: ReadonlyMap<StreamName, ReadonlySet<string>>;
}

/**
 * Starts and watches runs. A connection never runs twice at once: an in-process map answers at once,
 * and a lease row in the store (RunLeases) keeps other processes on the same database out.
 * Events: 'progress' (ProgressEvent) and 'finished' (RunSummary).
 */
@Injectable()
export class SyncService implements OnApplicationShutdown {
  readonly events: RunEvents;
  private readonly active = new Map<string, ActiveRun>();
  private stopping = false;
  private readonly logger: EngineLogger;

  constructor(
    private readonly lookup: ConnectionLookup,
    private readonly leases: RunLeases,
    private readonly failures: RunFailures,
    private readonly launcher: RunLauncher,
    private readonly progress: RunProgress,
    private readonly retries: RejectionRetry,
    private readonly previews: ConnectionPreview,
    private readonly runs: RunStore,
    private readonly settings: EngineSettings,
    private readonly outbounds: OutboundLauncher,
  ) {
    this.events = progress.events;
    this.logger = settings.logger;
    lookup.warmReadThreads();
  }

  /** Starts a run; resolves once it is recorded (its id known). `done` never rejects: a failure is a summary. */
  async start(connectionId: string, options: StartRunOptions): Promise<{ runId: number; done: Promise<RunSummary> }> {
    return this.startInternal(connectionId, options);
  }

  /**
   * Re-sends the unresolved rejected records of a run: a new run (mode 'retry', trigger 'admin' or 'cli') that reads
   * the source again but processes only those ids, ignoring fingerprints and moving no cursor.
   * Each record that is acknowledged resolves its rejections.
   */
  async retryRejected(runId: number, trigger: RunTrigger = 'admin'): Promise<{ runId: number; done: Promise<RunSummary> }> {
    const { connectionId, onlyIds } = await this.retries.idsOf(runId);
    return this.startInternal(connectionId, { mode: 'retry', trigger, onlyIds });
  }

  /** How many records retryRejected(runId) would send again (distinct ids per stream, unresolved). */
  async retryCount(runId: number): Promise<number> {
    return idCount((await this.retries.idsOf(runId)).onlyIds);
  }

  /**
   * An outbound flow (it reads the service and writes into the CRM): a run of its own (mode = the flow's name),
   * leased like a sync. Without a schedule of its own (e.g. `write_back.schedule`) the trigger path
   * (RunTriggerService) starts one after each successful sync of the connection.
   */
  async outbound(connectionId: string, flow: string, trigger: RunTrigger = 'admin'): Promise<{ runId: number; done: Promise<RunSummary> }> {
    this.checkRequest(connectionId, { flow });
    return this.startInternal(connectionId, { mode: flow as OutboundFlowName, trigger });
  }

  /** An outbound flow's dry run: what would be written where; nothing written or stored. */
  async outboundPreview(connectionId: string, flow: OutboundFlowName): Promise<unknown> {
    // a connection the flow does not run for is the caller's mistake (the admin API's 400, the CLI's one line)
    if (!this.outboundPlan(connectionId, flow)) throw new InvalidRunOptionsError(this.outbounds.flow(flow).notConfigured(connectionId));
    return this.outbounds.preview(this.lookup.connection(connectionId), flow, this.logger);
  }

  /** What a pass of an outbound flow would cost the service (requests, time at its limits), before it is spent. */
  async outboundEstimate(connectionId: string, flow: OutboundFlowName): Promise<FlowEstimate | null> {
    if (!this.outboundPlan(connectionId, flow)) throw new InvalidRunOptionsError(this.outbounds.flow(flow).notConfigured(connectionId));
    return this.outbounds.estimate(this.lookup.connection(connectionId), flow, this.logger);
  }

  /** The connection's plan of an outbound flow (its schedule), or null when the flow does not run for it. */
  outboundPlan(connectionId: string, flow: OutboundFlowName): FlowPlan | null {
    return this.outbounds.planOf(this.lookup.connection(connectionId), flow);
  }

  /** A dry run: a few records per stream, their payloads and verdicts; nothing is sent, no cursor moves. */
  preview(connectionId: string, options: PreviewOptions = {}): Promise<PreviewResult> {
    return this.previews.preview(connectionId, options);
  }

  /** The connection of a stored run, or null when there is no such run. */
  async connectionOfRun(runId: number): Promise<string | null> {
    return (await this.runs.get(runId))?.connection_id ?? null;
  }

  /** A run as stored, as its summary (cluster mode: a run this process waited for, ended on another daemon). */
  async runSummary(runId: number): Promise<RunSummary> {
    const run = await this.runs.get(runId);
    if (!run) throw new Error(`run ${runId} is not in the store`);
    const status = run.status === 'running' ? 'interrupted' : run.status;
    return this.launcher.summary(run.connection_id, runId, { status: status as RunOutcome['status'], error: run.error ?? null });
  }

  /** Whether the connection's newest stored run has ended (true when it has none). */
  async lastRunEnded(connectionId: string): Promise<boolean> {
    return (await this.runs.latestOf(connectionId))?.status !== 'running';
  }

  /** The last run of the connection that the store could not record, or null (see RunFailures). */
  lastFailure(connectionId: string): RunFailure | null {
    return this.failures.last(connectionId);
  }

  isRunning(connectionId: string): boolean {
    return this.active.has(connectionId);
  }

  /** This process's id in leases, runs and the daemon table. */
  get holderId(): string {
    return this.leases.holderId;
  }

  /** The runs going in this process (run id null while one is being recorded). */
  activeRuns(): { connectionId: string; runId: number | null }[] {
    return [...this.active].map(([connectionId, run]) => ({ connectionId, runId: run.runId }));
  }

  /** The id of the run going in this process, or null. */
  runningRunId(connectionId: string): number | null {
    return this.active.get(connectionId)?.runId ?? null;
  }

  /**
   * Throws what `start` or `outbound` would throw for these options (InvalidRunOptionsError, an unknown
   * connection) without starting anything: cluster mode checks a request before it becomes a job.
   */
  checkRequest(connectionId: string, options: StartRunOptions | { flow: string }): void {
    if ('flow' in options) {
      if (!isOutboundFlow(options.flow)) throw new InvalidRunOptionsError(`there is no outbound flow ${JSON.stringify(options.flow)} (flows: ${OUTBOUND_FLOW_NAMES.join(', ')})`);
      if (!this.outboundPlan(connectionId, options.flow)) throw new InvalidRunOptionsError(this.outbounds.flow(options.flow).notConfigured(connectionId));
      return;
    }
    this.lookup.connection(connectionId);
    validateStartOptions(options);
  }

  /**
   * Start-up: runs left 'running' by a process that is gone become 'interrupted'. Not in cluster mode: there no
   * lease tells a live daemon's run from a dead one's; the daemon that takes a dead one's job over closes its row.
   */
  async recoverInterruptedRuns(): Promise<number[]> {
    if (this.leases.inCluster) return [];
    const live = new Set([...this.active.values()].map((a) => a.runId).filter((id): id is number => id !== null));
    const ids = await this.runs.recoverInterrupted(live);
    if (ids.length) this.logger.warn(`${leftRunning(ids)} by a process that ended: marked interrupted`);
    return ids;
  }

  /** Stops reading, lets batches in flight finish and checkpoint; runs end 'interrupted'. */
  /**
   * Cluster mode: this daemon may no longer hold the connection's run job (src/scheduler/job-lock-watch.ts): its run
   * stops at its next checkpoint, `interrupted`, and its job resumes from that checkpoint (here or on another daemon).
   */
  claimLost(connectionId: string, runId: number): void {
    const slot = this.active.get(connectionId);
    if (!slot || slot.runId !== runId || slot.claimLost) return;
    slot.claimLost = true;
    slot.abort.abort();
  }

  async shutdown(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    const pending = [...this.active.values()];
    for (const run of pending) run.abort.abort();
    const all = Promise.all(pending.map((r) => r.done?.catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([all, timeout]);
    if (timer) clearTimeout(timer);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.shutdown();
    await closeReadPools(); // the idle read threads would keep the process up a while (a CLI run's exit)
  }

  // ---- internals ------------------------------------------------------------------------

  private async startInternal(connectionId: string, options: InternalStart): Promise<{ runId: number; done: Promise<RunSummary> }> {
    if (this.stopping) throw new EngineStoppingError();
    const connection = this.lookup.connection(connectionId);
    const outbound = isOutboundFlow(options.mode);
    const since = options.onlyIds || outbound ? null : validateStartOptions(options);
    let current = this.active.get(connectionId);
    if (current?.ending) {
      current = await this.afterEnd(connectionId, current);
      if (this.stopping) throw new EngineStoppingError();
    }
    if (current) throw new RunInProgressError(connectionId, current.runId);
    const slot: ActiveRun = { runId: null, abort: new AbortController() };
    this.active.set(connectionId, slot); // before any await: two starts in one tick cannot both pass
    try {
      // an outbound run claims no tick of the sync's schedule (its own cron may fire at the same minute)
      const claim = outbound ? { trigger: 'admin' as const } : options;
      await this.leases.take(connection, claim, this.activeRuns().filter((run) => run.runId !== null).length);
      await this.failures.recordPendingEnd(connectionId);
      // cluster mode: the run of a daemon that died (its job taken over here) ends before this one begins, so the
      // table never shows two runs of the connection at once
      if (this.leases.inCluster) await this.runs.interruptOthers(connectionId, 0);
      // the run is its project's for good: a reload that moves the connection to another project leaves it here
      const run = await this.runs.create({
        connectionId, mode: options.mode, since: options.since ?? null, trigger: options.trigger, holder: this.holderId, project: projectNameOf(connection),
      });
      slot.runId = run.id;
      await this.leases.bindRun(connectionId, run.id);
      await this.runs.interruptOthers(connectionId, run.id);
      const launched: LaunchedRun = { ...options, runId: run.id, sinceDate: since, startedAt: new Date(run.started_at), signal: slot.abort.signal };
      slot.done = this.runToEnd(connection, launched, slot);
      return { runId: run.id, done: slot.done };
    } catch (e) {
      this.active.delete(connectionId);
      if (e instanceof RunInProgressError) throw e;
      await this.leases.release(connectionId).catch(() => undefined);
      const refused = this.failures.startRefused(connectionId, e);
      // no run row, no summary: said to who listens for runs (alerts), as a run's end would be
      this.progress.refused({
        connectionId, direction: outbound ? 'outbound' : 'sync', flow: outbound ? (options.mode as OutboundFlowName) : null, trigger: options.trigger,
        error: this.failures.last(connectionId)?.error ?? refused.message, at: new Date().toISOString(),
      });
      throw refused;
    }
  }

  /**
   * A run whose end is being recorded lets the connection go in a moment: that is waited for (at most
   * endingHolderWaitMs), so that a trigger right after the run reads ended is accepted. Answers the run going then
   * (none, or one that took the connection meanwhile: a write-back after a sync, another waiting start).
   */
  private async afterEnd(connectionId: string, ending: ActiveRun): Promise<ActiveRun | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.settings.endingHolderWaitMs)));
    await Promise.race([ending.done?.catch(() => undefined), timeout]);
    clearTimeout(timer);
    return this.active.get(connectionId);
  }

  private async runToEnd(connection: ConnectionConfig, run: LaunchedRun, slot: ActiveRun): Promise<RunSummary> {
    const logger = runScopedLogger(this.logger, connection.id, run.runId, this.lookup.projectLabel(connection));
    const stopRenewing = this.leases.keepRenewed(connection.id, logger, () => {
      slot.leaseLost = true;
      slot.abort.abort();
    });
    let outcome: RunOutcome;
    try {
      logger.log(`run started: mode ${run.mode}${run.since ? ` ${run.since}` : ''}, trigger ${run.trigger}${run.onlyIds ? ` (${idCount(run.onlyIds)} rejected records)` : ''}`);
      outcome = isOutboundFlow(run.mode)
        ? await this.outbounds.execute(connection, run.mode, run.runId, run.signal, logger)
        : await this.launcher.execute(connection, run, logger);
    } catch (e) {
      outcome = { status: 'failed', error: errorText(e), ...lastingFailure(e) };
    } finally {
      stopRenewing();
    }
    if (slot.leaseLost) outcome = { status: 'failed', error: new LeaseLostError(connection.id).message };
    else if (slot.claimLost && outcome.status !== 'succeeded') outcome = { status: 'interrupted', error: JOB_LOCK_LOST };
    // the lease and the slot are let go only once the row is ended (a next run would mark a running row interrupted)
    slot.ending = true;
    await this.failures.recordEnd(connection.id, run.runId, outcome, logger);
    await this.leases.release(connection.id).catch((e) => logger.error(`could not release the lease: ${errorText(e)}`));
    const summary = await this.launcher.summary(connection.id, run.runId, outcome);
    this.active.delete(connection.id);
    const line = summaryLine(summary);
    if (summary.status === 'failed') logger.error(line);
    else logger.log(line);
    this.progress.finished(summary);
    return summary;
  }
}

/** "run 9 was left running", "runs 9, 10 were left running" */
function leftRunning(ids: number[]): string {
  return ids.length === 1 ? `run ${ids[0]} was left running` : `runs ${ids.join(', ')} were left running`;
}

function idCount(onlyIds: ReadonlyMap<StreamName, ReadonlySet<string>>): number {
  let count = 0;
  for (const ids of onlyIds.values()) count += ids.size;
  return count;
}
