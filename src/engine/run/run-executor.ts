import { STREAM_ORDER, StreamName } from '../../connectors/canonical';
import type { ConnectorDefinition, ConnectorSecrets, Page, ReadCursor, StreamSpec } from '../../connectors/connector-definition';
import { errorText } from '../engine-errors';
import { isLastingError } from '../../connectors/lasting-failure';
import { isAccessRefusal, isTrackerApiError } from '../../tracker/tracker-error';
import { RunMode } from '../engine-types';
import { CursorStore } from '../../store/repositories/cursor.store';
import { RunScope, zeroStreamCounters } from '../pipeline/run-scope';
import { storedStateFor } from '../pipeline/fingerprint';
import { mappingVersionOf, MappingVersions, streamHandler } from '../pipeline/sending';
import { StreamPlan, StreamSync } from '../stream/stream-sync';
import { readOffloaded } from '../offload/offloaded-read';
import type { StatusMode } from '../../config/config.schema';
import { registerStages } from '../project-statuses';
import { fromSource, isStreamsOwn, StreamResults, StreamSourceError } from './stream-results';

export interface RunRequest {
  mode: RunMode;
  /** mode 'since': where reading starts */
  since: Date | null;
  onlyStreams?: readonly StreamName[];
  /** a retry of rejected records: per stream, the ids to process (nothing else is sent, no cursor moves) */
  onlyIds?: ReadonlyMap<StreamName, ReadonlySet<string>>;
  /** the run's start: its upper bound is this minus lag (the signpost) */
  startedAt: Date;
  definition: ConnectorDefinition;
  settings: object;
  overlapSeconds: number;
  lagSeconds: number;
  batchSize: number;
  concurrency: number;
  /** worker threads for reads (tracker.workers resolved): 0 reads in this thread */
  workers?: number;
  workDir?: string;
  secrets?: ConnectorSecrets;
  /** EngineOptions.mappingVersions */
  mappingVersions?: MappingVersions;
  /** connections[].statuses: 'register' defines the CRM's stages in the project before the deals stream */
  statuses?: StatusMode;
  /** what the connector's `open` returned for this run (ReadContext.session) */
  session?: unknown;
}

export interface RunOutcome {
  status: 'succeeded' | 'failed' | 'interrupted';
  error: string | null;
  /** failed for a reason no retry lifts soon (lastingFailure): cluster mode does not try the run's job again */
  lasting?: boolean;
}

/**
 * `{ lasting: true }` for a failure no retry of the run lifts soon: the service refused the Api-key or the project,
 * or the connector's error says so (isLastingError: refused credentials, a spent daily quota); else nothing.
 */
export function lastingFailure(e: unknown): Pick<RunOutcome, 'lasting'> {
  return isAccessRefusal(e) || isLastingError(e) ? { lasting: true } : {};
}

/** One run: the connector's streams in dependency order (managers, clients, deals, ...), each to its end or its own failure. */
export class RunExecutor {
  constructor(
    private readonly scope: RunScope,
    private readonly cursors: CursorStore,
    private readonly request: RunRequest,
  ) {}

  /**
   * A stream's own failure (isStreamsOwn: its file, its endpoint) fails that stream: the run goes on with the streams
   * that do not need it and ends failed, naming it (StreamResults). Any other failure stops the run there, as the
   * service's, the store's or a whole source's would meet every later stream too.
   */
  async execute(): Promise<RunOutcome> {
    let specs: StreamSpec[];
    try {
      specs = this.streamsToRun();
    } catch (e) {
      return { status: 'failed', error: `connector ${this.request.definition.name}: ${errorText(e)}`, ...lastingFailure(e) };
    }
    const results = new StreamResults(specs.map((spec) => spec.name));
    for (const [index, spec] of specs.entries()) {
      if (this.scope.signal.aborted) return interrupted(results);
      const missing = results.missingFor(spec.name);
      if (missing.length) {
        this.scope.logger.warn(`${spec.name}: not read: it needs ${missing.join(', ')}, which failed in this run`);
        results.skip(spec.name, missing);
        continue;
      }
      try {
        if (spec.name === 'deals' && this.request.statuses === 'register' && !this.request.onlyIds) await this.registerStages();
        const plan = await this.plan(spec, specs.slice(index + 1).map((later) => later.name));
        this.scope.logger.log(`${spec.name}: reading ${describeWindow(plan)}`);
        const outcome = await new StreamSync(this.scope, plan).execute();
        if (!outcome.complete) return interrupted(results);
        results.done(spec.name);
      } catch (e) {
        if (this.scope.signal.aborted) return interrupted(results);
        const message = errorText(e);
        this.scope.logger.error(`${spec.name}: ${message}`);
        const error = message.startsWith(`stream ${spec.name}`) || message.includes(`stream ${spec.name}`) ? message : `stream ${spec.name}: ${message}`;
        if (!isStreamsOwn(e)) return { status: 'failed', error: results.stopped(spec.name, error), ...lastingFailure(e) };
        results.failed(spec.name, error, e);
      }
    }
    return results.outcome();
  }

  /** The CRM's stages for `statuses: register`: the connector's failure to list them is the deals stream's own. */
  private async registerStages(): Promise<void> {
    const { definition, settings, workDir, secrets, session } = this.request;
    const logger = { log: this.scope.logger.log, warn: this.scope.logger.warn, debug: this.scope.logger.debug };
    const context = { connectionId: this.scope.connectionId, settings, logger, signal: this.scope.signal, workDir, secrets, session };
    try {
      await registerStages(definition, context, this.scope.tracker, logger);
    } catch (e) {
      throw isTrackerApiError(e) ? e : new StreamSourceError('deals', e);
    }
  }

  /** A connector's notice is logged as a warning and kept with the stream's counters (the status page shows it). */
  private notice(stream: StreamName, message: string): void {
    this.scope.logger.warn(message);
    const counters = this.scope.streams[stream] ?? (this.scope.streams[stream] = zeroStreamCounters());
    if (!(counters.notices ?? []).includes(message)) counters.notices = [...(counters.notices ?? []), message];
  }

  private streamsToRun(): StreamSpec[] {
    const offered = this.request.definition.streams(this.request.settings);
    const byName = new Map(offered.map((s) => [s.name, s]));
    return STREAM_ORDER.filter((name) => byName.has(name))
      .filter((name) => !this.request.onlyStreams || this.request.onlyStreams.includes(name))
      .filter((name) => !this.request.onlyIds || this.request.onlyIds.has(name))
      .map((name) => byName.get(name)!);
  }

  private async plan(spec: StreamSpec, laterStreams: StreamName[]): Promise<StreamPlan> {
    const { mode, onlyIds } = this.request;
    const retry = !!onlyIds;
    const mappingVersion = mappingVersionOf(spec.name, this.request.mappingVersions);
    const until = new Date(this.request.startedAt.getTime() - this.request.lagSeconds * 1000);
    let since: Date | null = null;
    let state: Record<string, unknown> | null = null;
    if (!retry && mode === 'incremental') {
      state = storedStateFor(await this.cursors.state(this.scope.connectionId, spec.name), mappingVersion);
      const cursor = spec.incremental ? await this.cursors.cursor(this.scope.connectionId, spec.name) : null;
      if (cursor) since = new Date(cursor.getTime() - this.request.overlapSeconds * 1000);
    } else if (!retry && mode === 'since' && spec.incremental) {
      since = this.request.since;
    }
    const window = { since, until };
    // a read from a cursor skips what is older: the records still rejected are handed over, to be read all the same
    const openRejections = since !== null && mode === 'incremental' && !retry ? await this.openRejections(spec.name) : undefined;
    const handler = streamHandler(spec.name);
    const useFingerprints = mode === 'incremental' && !retry;
    // A read compared with what was acknowledged (a changed file) stays in-thread: its unchanged rows are dropped
    // by their row hash before they are mapped, where a worker maps every row (1 % changed: five times slower).
    const offload = !useFingerprints || state === null;
    const rejectedIds = openRejections && [...openRejections].filter((key) => key.startsWith('id:')).map((key) => key.slice(3));
    const read = this.reader(spec.name, window, state, mappingVersion, !!handler.sendsBytes, laterStreams, offload, rejectedIds);
    return {
      // a read from the beginning that comes in another order (firstReadUnsorted) is checked as unsorted
      spec: since === null && spec.firstReadUnsorted ? { ...spec, sorted: false } : spec,
      handler,
      mappingVersion,
      window,
      read,
      useFingerprints,
      moveCursor: !retry,
      saveState: !retry && mode !== 'since',
      wholeSource: since === null && !retry,
      onlyIds: onlyIds?.get(spec.name),
      openRejections,
      batchSize: this.request.batchSize,
      concurrency: this.request.concurrency,
    };
  }

  /**
   * The stream's read: on a worker thread when the connector can be read there, the run has threads
   * (tracker.workers) and `offload` (the records arrive mapped, see src/engine/offload/), else the connector's
   * `read` here.
   */
  private reader(
    stream: StreamName, window: ReadCursor, state: Record<string, unknown> | null, mappingVersion: number, serialise: boolean,
    laterStreams: StreamName[], offload: boolean, openRejections: string[] | undefined,
  ): () => AsyncIterable<Page> {
    const { definition, settings, workDir, secrets, session } = this.request;
    const threads = offload ? (this.request.workers ?? 0) : 0;
    const logger = { log: this.scope.logger.log, warn: this.scope.logger.warn, debug: this.scope.logger.debug, notice: (m: string) => this.notice(stream, m) };
    const connectionId = this.scope.connectionId;
    const signal = this.scope.signal;
    const module = definition.workerModule;
    if (threads > 0 && module) {
      const since = window.since?.getTime() ?? null;
      const until = window.until.getTime();
      const { batchSize } = this.request;
      const task = { connectorModule: module, connectionId, runId: this.scope.runId, settings, stream, laterStreams, since, until, state, openRejections, workDir, mappingVersion, batchSize, serialise, exitAfterRecords: workerExitHook() };
      return () => fromSource(stream, () => readOffloaded({ threads, signal, logger, task }));
    }
    return () => fromSource(stream, () => definition.read(stream, window, { connectionId, settings, logger, signal, state, workDir, secrets, laterStreams, session, openRejections }));
  }

  /** The stream's open rejection keys, read once: the stream's read and its sync (StreamPlan.openRejections) share them. */
  private async openRejections(stream: StreamName): Promise<Set<string>> {
    try {
      return await this.scope.openRejections.keys(this.scope.connectionId, stream);
    } catch (e) {
      throw new Error(`stream ${stream}: the store could not read open rejections: ${errorText(e)}`);
    }
  }
}

function interrupted(results: StreamResults): RunOutcome {
  return { status: 'interrupted', error: results.interrupted('stopped by shutdown; the next run continues from the last checkpoint') };
}

function describeWindow(plan: StreamPlan): string {
  const from = plan.window.since ? `from ${plan.window.since.toISOString()}` : 'from the beginning';
  return `${from} up to ${plan.window.until.toISOString()}${plan.useFingerprints ? '' : ' (fingerprints ignored)'}`;
}

/**
 * Fault tests only: TRACKER_SYNC_WORKER_EXIT_AFTER=N makes a read's worker thread exit after mapping N records
 * (test/faults/worker-death.spec.ts), as a thread killed mid-file would.
 */
function workerExitHook(): number | undefined {
  const value = Number(process.env.TRACKER_SYNC_WORKER_EXIT_AFTER);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
