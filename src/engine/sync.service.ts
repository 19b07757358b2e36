import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { EventEmitter } from 'events';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { TrackerSyncConfig, ConnectionConfig } from '../config/config.schema';
import type { StreamName } from '../connectors/canonical';
import type { ConnectorDefinition, SourceProgress } from '../connectors/connector-definition';
import { ConnectorRegistry } from '../connectors/connector-registry';
import { RejectedRecordEntity } from '../store/entities/rejected-record.entity';
import { TrackerClient } from '../tracker/tracker-client';
import { EngineStoppingError, errorText, InvalidRunOptionsError, LeaseLostError, RunInProgressError, ScheduledSlotTakenError, UnknownConnectionError, UnknownRunError } from './engine-errors';
import { defaultEngineLogger, ENGINE_LOGGER, EngineLogger, runScopedLogger } from './engine-logger';
import { ENGINE_OPTIONS, EngineOptions, ResolvedEngineOptions, resolveEngineOptions } from './engine-options';
import { PreviewOptions, PreviewResult, ProgressEvent, RunSummary, RunTrigger, StartRunOptions } from './engine-types';
import { CursorStore } from '../store/repositories/cursor.store';
import { LeaseStore } from '../store/repositories/lease.store';
import { OpenRejectionStore } from '../store/repositories/open-rejection.store';
import { RecordStateStore } from '../store/repositories/record-state.store';
import { RunStore } from '../store/repositories/run.store';
import { SerialWriter, serialWriter } from '../store/serial-writer';
import { previewConnection } from './preview';
import { RunExecutor, RunOutcome, RunRequest } from './run-executor';
import { validateStartOptions } from './run-options';
import { RunScope } from './run-scope';
import { scheduledSlot } from './schedule-slot';
import { summaryFromRun, summaryLine } from './run-summary';
import { zeroServiceCounters } from './service-answer';

interface ActiveRun {
  runId: number | null;
  abort: AbortController;
  done?: Promise<RunSummary>;
  leaseLost?: boolean;
}

/** A run that the store could not record: its start, or its end. Kept in memory, since the store failed. */
export interface RunFailure {
  at: Date;
  error: string;
}

interface InternalStart extends StartRunOptions {
  onlyIds?: ReadonlyMap<StreamName, ReadonlySet<string>>;
}

/**
 * Starts and watches runs. A connection never runs twice at once: an in-process map answers at once,
 * and a lease row in the store keeps other processes on the same database out.
 * Events: 'progress' (ProgressEvent) and 'finished' (RunSummary).
 */
@Injectable()
export class SyncService implements OnApplicationShutdown {
  readonly events = new EventEmitter();
  private readonly active = new Map<string, ActiveRun>();
  private readonly failures = new Map<string, RunFailure>();
  /** Ends of runs the store refused, written before the connection's next run (else it would read 'interrupted'). */
  private readonly unrecordedEnds = new Map<string, { runId: number; outcome: RunOutcome }>();
  private stopping = false;
  private readonly options: ResolvedEngineOptions;
  private readonly logger: EngineLogger;
  private readonly writer: SerialWriter;
  private readonly leases: LeaseStore;
  private readonly runs: RunStore;
  private readonly cursors: CursorStore;
  private readonly recordStates: RecordStateStore;

  constructor(
    private readonly dataSource: DataSource,
    private readonly tracker: TrackerClient,
    private readonly connectors: ConnectorRegistry,
    private readonly config: TrackerSyncConfig,
    @Optional() @Inject(ENGINE_LOGGER) logger?: EngineLogger,
    @Optional() @Inject(ENGINE_OPTIONS) options?: EngineOptions,
  ) {
    this.options = resolveEngineOptions(options ?? {});
    this.logger = logger ?? defaultEngineLogger();
    this.writer = serialWriter(dataSource);
    this.leases = new LeaseStore(dataSource, this.writer, this.options.holder, { ttlMs: this.options.leaseTtlMs, deadDaemonAfterMs: this.options.deadDaemonAfterMs });
    this.runs = new RunStore(dataSource, this.writer);
    this.cursors = new CursorStore(dataSource);
    this.recordStates = new RecordStateStore(dataSource);
    this.events.setMaxListeners(50);
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
    const run = await this.runs.get(runId);
    if (!run) throw new UnknownRunError(runId);
    const rows = await this.dataSource.getRepository(RejectedRecordEntity).findBy({ run_id: runId, resolved: false });
    const onlyIds = new Map<StreamName, Set<string>>();
    for (const row of rows) {
      if (!row.external_id) continue;
      const ids = onlyIds.get(row.stream as StreamName) ?? new Set<string>();
      ids.add(row.external_id);
      onlyIds.set(row.stream as StreamName, ids);
    }
    if (onlyIds.size === 0) throw new InvalidRunOptionsError(`run ${runId} has no unresolved rejected records with an id to retry`);
    return this.startInternal(run.connection_id, { mode: 'retry', trigger, onlyIds });
  }

  /** A dry run: a few records per stream, their payloads and verdicts; nothing is sent, no cursor moves. */
  async preview(connectionId: string, options: PreviewOptions = {}): Promise<PreviewResult> {
    const connection = this.connectionConfig(connectionId);
    const { definition, settings } = this.connectorOf(connection);
    const logger = runScopedLogger(this.logger, connectionId, null);
    const { mappingVersions } = this.options;
    return previewConnection({ connectionId, definition, settings, recordStates: this.recordStates, logger, workDir: this.workDir(connectionId), mappingVersions }, options);
  }

  /**
   * The last run of the connection that the store could not record (the start failed, or the end of the run
   * could not be written), or null; cleared once a later run is recorded to its end. Stored runs cannot show
   * such a failure, so the status reads it here.
   */
  lastFailure(connectionId: string): RunFailure | null {
    const failure = this.failures.get(connectionId);
    return failure ? { ...failure } : null;
  }

  isRunning(connectionId: string): boolean {
    return this.active.has(connectionId);
  }

  /** This process's id in leases, runs and the daemon table. */
  get holderId(): string {
    return this.options.holder;
  }

  /** The runs going in this process (run id null while one is being recorded). */
  activeRuns(): { connectionId: string; runId: number | null }[] {
    return [...this.active].map(([connectionId, run]) => ({ connectionId, runId: run.runId }));
  }

  /** The id of the run going in this process, or null. */
  runningRunId(connectionId: string): number | null {
    return this.active.get(connectionId)?.runId ?? null;
  }

  /** Start-up: runs left 'running' by a process that is gone become 'interrupted'. */
  async recoverInterruptedRuns(): Promise<number[]> {
    const live = new Set([...this.active.values()].map((a) => a.runId).filter((id): id is number => id !== null));
    const ids = await this.runs.recoverInterrupted(live);
    if (ids.length) this.logger.warn(`runs ${ids.join(', ')} were left running by a process that ended: marked interrupted`);
    return ids;
  }

  /** Stops reading, lets batches in flight finish and checkpoint; runs end 'interrupted'. */
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
  }

  // ---- internals ------------------------------------------------------------------------

  private async startInternal(connectionId: string, options: InternalStart): Promise<{ runId: number; done: Promise<RunSummary> }> {
    if (this.stopping) throw new EngineStoppingError();
    const connection = this.connectionConfig(connectionId);
    const since = options.onlyIds ? null : validateStartOptions(options);
    const current = this.active.get(connectionId);
    if (current) throw new RunInProgressError(connectionId, current.runId);
    const slot: ActiveRun = { runId: null, abort: new AbortController() };
    this.active.set(connectionId, slot); // before any await: two starts in one tick cannot both pass
    try {
      const tick = this.tickOf(connection, options);
      if (tick) await this.spreadScheduledStart();
      const lease = await this.leases.acquire(connectionId, tick);
      if (!lease.taken) {
        if (lease.reason === 'slot-taken') throw new ScheduledSlotTakenError(connectionId, lease.lease?.run_id ?? null, tick!);
        throw new RunInProgressError(connectionId, lease.lease?.run_id ?? null);
      }
      await this.recordUnrecordedEnd(connectionId);
      const run = await this.runs.create({ connectionId, mode: options.mode, since: options.since ?? null, trigger: options.trigger, holder: this.options.holder });
      slot.runId = run.id;
      await this.leases.setRun(connectionId, run.id);
      await this.runs.interruptOthers(connectionId, run.id);
      const startedAt = new Date(run.started_at);
      slot.done = this.runToEnd(connection, run.id, slot, { ...options, sinceDate: since, startedAt });
      return { runId: run.id, done: slot.done };
    } catch (e) {
      this.active.delete(connectionId);
      if (e instanceof RunInProgressError) throw e;
      await this.leases.release(connectionId).catch(() => undefined);
      throw this.notRecorded(connectionId, e);
    }
  }

  /** Lets the least busy of the daemons sharing the store take a tick's lease (see scheduleJitterMs). */
  private async spreadScheduledStart(): Promise<void> {
    const going = [...this.active.values()].filter((run) => run.runId !== null).length;
    const ms = Math.random() * this.options.scheduleJitterMs + Math.min(going * 20, 1000);
    if (ms >= 1) await new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** The tick a scheduled run claims (ISO), so that daemons sharing the store run each tick once. */
  private tickOf(connection: ConnectionConfig, options: InternalStart): string | undefined {
    if (options.trigger !== 'schedule') return undefined;
    const slot = options.scheduledAt ?? scheduledSlot(connection.schedule);
    return slot ? slot.toISOString() : undefined;
  }

  private async runToEnd(connection: ConnectionConfig, runId: number, slot: ActiveRun, options: InternalStart & { sinceDate: Date | null; startedAt: Date }): Promise<RunSummary> {
    const logger = runScopedLogger(this.logger, connection.id, runId);
    const renewal = setInterval(() => this.renewLease(connection.id, slot, logger), this.options.leaseRenewMs);
    renewal.unref();
    let outcome: RunOutcome;
    try {
      logger.log(`run started: mode ${options.mode}${options.since ? ` since ${options.since}` : ''}, trigger ${options.trigger}${options.onlyIds ? ` (${[...options.onlyIds.values()].reduce((n, ids) => n + ids.size, 0)} rejected records)` : ''}`);
      outcome = await this.execute(connection, runId, slot, options, logger);
    } catch (e) {
      outcome = { status: 'failed', error: errorText(e) };
    } finally {
      clearInterval(renewal);
    }
    if (slot.leaseLost) outcome = { status: 'failed', error: new LeaseLostError(connection.id).message };
    return this.close(connection.id, runId, outcome, logger);
  }

  private async execute(connection: ConnectionConfig, runId: number, slot: ActiveRun, options: InternalStart & { sinceDate: Date | null; startedAt: Date }, logger: ReturnType<typeof runScopedLogger>): Promise<RunOutcome> {
    const { definition, settings } = this.connectorOf(connection);
    const unresolved = await this.dataSource.getRepository(RejectedRecordEntity).countBy({ connection_id: connection.id, resolved: false });
    const streams: RunScope['streams'] = {};
    const scope: RunScope = {
      runId,
      connectionId: connection.id,
      writer: this.writer,
      recordStates: this.recordStates,
      openRejections: new OpenRejectionStore(this.dataSource),
      tracker: this.tracker,
      logger,
      signal: slot.abort.signal,
      streams,
      counters: zeroServiceCounters(),
      hasUnresolvedRejections: unresolved > 0,
      idleCheckpointMs: this.options.idleCheckpointMs,
      deleteMissingManagers: connection.sync?.delete_missing_managers ?? true,
      progress: this.progressEmitter(connection.id, runId, streams),
    };
    const request: RunRequest = {
      mode: options.mode,
      since: options.sinceDate,
      onlyStreams: options.onlyStreams,
      onlyIds: options.onlyIds,
      startedAt: options.startedAt,
      definition,
      settings,
      overlapSeconds: connection.sync?.overlap_seconds ?? 300,
      lagSeconds: connection.sync?.lag_seconds ?? 0,
      batchSize: connection.sync?.batch_size ?? this.config.tracker?.batch_size ?? 500,
      concurrency: this.config.tracker?.concurrency ?? 4,
      workDir: this.workDir(connection.id),
      mappingVersions: this.options.mappingVersions,
    };
    return new RunExecutor(scope, this.cursors, request).execute();
  }

  private async close(connectionId: string, runId: number, outcome: RunOutcome, logger: ReturnType<typeof runScopedLogger>): Promise<RunSummary> {
    try {
      await this.runs.finish(runId, outcome.status, outcome.error);
      this.failures.delete(connectionId);
    } catch (e) {
      logger.error(`could not record the end of the run: ${errorText(e)}`);
      this.unrecordedEnds.set(connectionId, { runId, outcome });
      const why = outcome.status === 'failed' && outcome.error ? ` (the run failed: ${outcome.error})` : '';
      this.failures.set(connectionId, { at: new Date(), error: `the store could not record the end of run ${runId}: ${errorText(e)}${why}` });
    }
    await this.leases.release(connectionId).catch((e) => logger.error(`could not release the lease: ${errorText(e)}`));
    let summary: RunSummary;
    try {
      const run = await this.runs.get(runId);
      summary = summaryFromRun(run!, await this.runs.rejectedOf(runId, 20));
      summary.status = outcome.status;
      summary.error = outcome.error;
    } catch (e) {
      summary = this.bareSummary(connectionId, runId, outcome);
    }
    this.active.delete(connectionId);
    const line = summaryLine(summary);
    if (summary.status === 'failed') logger.error(line);
    else logger.log(line);
    this.events.emit('finished', summary);
    return summary;
  }

  /** The end of the previous run that the store refused then: written now, while the lease is held. */
  private async recordUnrecordedEnd(connectionId: string): Promise<void> {
    const end = this.unrecordedEnds.get(connectionId);
    if (!end) return;
    await this.runs.finish(end.runId, end.outcome.status, end.outcome.error);
    this.unrecordedEnds.delete(connectionId);
  }

  /** A start the store refused (lease or run row): kept as the connection's last failure, and said plainly. */
  private notRecorded(connectionId: string, cause: unknown): Error {
    const error = `the store could not record the run: ${errorText(cause)}`;
    this.failures.set(connectionId, { at: new Date(), error });
    return new Error(`connection ${connectionId}: ${error}`, { cause });
  }

  private renewLease(connectionId: string, slot: ActiveRun, logger: ReturnType<typeof runScopedLogger>): void {
    this.leases.renew(connectionId).then(
      (held) => {
        if (held || slot.leaseLost) return;
        slot.leaseLost = true;
        logger.error('the lease was taken by another process; stopping the run');
        slot.abort.abort();
      },
      (e) => logger.warn(`lease renewal failed (will retry): ${errorText(e)}`),
    );
  }

  /** 'progress' events of a run: per stream, at most one per progressIntervalMs unless forced (stream end). */
  private progressEmitter(connectionId: string, runId: number, streams: RunScope['streams']): RunScope['progress'] {
    const lastAt = new Map<string, number>();
    const sources = new Map<string, SourceProgress>();
    return (stream, force = false, source) => {
      if (source) sources.set(stream, source);
      const now = Date.now();
      if (!force && now - (lastAt.get(stream) ?? 0) < this.options.progressIntervalMs) return;
      lastAt.set(stream, now);
      const c = streams[stream];
      if (!c) return;
      const event: ProgressEvent = { connectionId, runId, stream, read: c.read, sent: c.sent, unchanged: c.unchanged, rejected: c.rejected };
      const position = sources.get(stream);
      if (position) event.source = position;
      this.events.emit('progress', event);
    };
  }

  private bareSummary(connectionId: string, runId: number, outcome: RunOutcome): RunSummary {
    const now = new Date().toISOString();
    return {
      runId, connectionId, mode: 'incremental', trigger: 'admin', status: outcome.status, startedAt: now, finishedAt: now,
      streams: {}, counters: zeroServiceCounters(), rejectedCount: 0, rejected: [], error: outcome.error,
    };
  }

  private connectionConfig(connectionId: string): ConnectionConfig {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    return connection;
  }

  private connectorOf(connection: ConnectionConfig): { definition: ConnectorDefinition; settings: object } {
    const definition = this.connectors.get(connection.connector);
    if (!definition) throw new Error(`connection ${connection.id}: connector ${JSON.stringify(connection.connector)} is not available`);
    const settings = this.connectors.instantiateSettings(connection.connector, connection.settings ?? {});
    return { definition, settings };
  }

  private workDir(connectionId: string): string {
    return join(this.options.workDir ?? join(this.config.data_dir ?? './data', 'connectors'), connectionId);
  }
}
