import { Injectable } from '@nestjs/common';
import { ConnectionConfig, syncOptionsOf } from '../../config/config.schema';
import type { StreamName } from '../../connectors/canonical';
import { ConnectionStore } from '../../store/repositories/connection.store';
import { CursorStore } from '../../store/repositories/cursor.store';
import { OpenRejectionStore } from '../../store/repositories/open-rejection.store';
import { RecordStateStore } from '../../store/repositories/record-state.store';
import { RejectedRecordStore } from '../../store/repositories/rejected-record.store';
import { RunStore } from '../../store/repositories/run.store';
import { SerialWriter } from '../../store/serial-writer';
import { ConnectionLookup } from '../connection/connection-lookup';
import { withConnectorSession } from '../connection/connector-session';
import { EngineSettings } from '../engine-settings';
import { RunSummary, StartRunOptions } from '../engine-types';
import { RunExecutor, RunOutcome, RunRequest } from './run-executor';
import { RunProgress } from './run-progress';
import { RunScope } from '../pipeline/run-scope';
import { summaryFromRun } from './run-summary';
import { zeroServiceCounters } from '../pipeline/service-answer';

/** A recorded run to execute: SyncService's start options, resolved. */
export interface LaunchedRun extends StartRunOptions {
  runId: number;
  sinceDate: Date | null;
  startedAt: Date;
  onlyIds?: ReadonlyMap<StreamName, ReadonlySet<string>>;
  signal: AbortSignal;
}

/** Puts a recorded run together (its scope and request for RunExecutor), and reads its summary back. */
@Injectable()
export class RunLauncher {
  constructor(
    private readonly writer: SerialWriter,
    private readonly recordStates: RecordStateStore,
    private readonly openRejections: OpenRejectionStore,
    private readonly cursors: CursorStore,
    private readonly connectionRows: ConnectionStore,
    private readonly runs: RunStore,
    private readonly rejected: RejectedRecordStore,
    private readonly lookup: ConnectionLookup,
    private readonly progress: RunProgress,
    private readonly settings: EngineSettings,
  ) {}

  async execute(connection: ConnectionConfig, run: LaunchedRun, logger: RunScope['logger']): Promise<RunOutcome> {
    const { definition, settings } = this.lookup.connector(connection);
    const tracker = this.lookup.tracker(connection);
    await this.forgetAnotherTarget(connection.id, tracker.target, logger);
    const streams: RunScope['streams'] = {};
    const scope: RunScope = {
      runId: run.runId,
      connectionId: connection.id,
      writer: this.writer,
      recordStates: this.recordStates,
      openRejections: this.openRejections,
      tracker,
      logger,
      signal: run.signal,
      streams,
      counters: zeroServiceCounters(),
      hasUnresolvedRejections: await this.rejected.hasUnresolved(connection.id),
      idleCheckpointMs: this.settings.idleCheckpointMs,
      deleteMissingManagers: syncOptionsOf(connection).delete_missing_managers,
      progress: this.progress.reporter(connection.id, run.runId, streams),
    };
    const request: RunRequest = {
      mode: run.mode,
      since: run.sinceDate,
      onlyStreams: run.onlyStreams,
      onlyIds: run.onlyIds,
      startedAt: run.startedAt,
      definition,
      settings,
      overlapSeconds: syncOptionsOf(connection).overlap_seconds,
      lagSeconds: syncOptionsOf(connection).lag_seconds,
      ...this.lookup.sizing(connection),
      workDir: this.lookup.workDir(connection.id),
      secrets: this.lookup.secrets(connection.id),
      mappingVersions: this.settings.mappingVersions,
      statuses: connection.statuses,
    };
    const session = { definition, settings, connectionId: connection.id, logger, signal: run.signal, workDir: request.workDir, secrets: request.secrets };
    return withConnectorSession(session, (opened) => new RunExecutor(scope, this.cursors, { ...request, session: opened }).execute());
  }

  /**
   * A connection moved to another project or service (its `project:`, the project's number, `base_url`; the embedded
   * sandbox left for the real service): what it sent before went elsewhere, so it is forgotten and this run sends
   * every record. Without that, the fingerprints would keep every unchanged record from the new target for good.
   */
  private async forgetAnotherTarget(connectionId: string, target: string, logger: RunScope['logger']): Promise<void> {
    const before = await this.connectionRows.switchTarget(connectionId, target);
    if (before) {
      logger.warn(`records now go to ${target}, not ${before}: what was sent there is forgotten (fingerprints, cursors, file states), and this run sends every record`);
    }
  }

  /** The run as stored, with its outcome; a bare summary when the store cannot be read. */
  async summary(connectionId: string, runId: number, outcome: RunOutcome): Promise<RunSummary> {
    try {
      const run = await this.runs.get(runId);
      const { rows, total } = await this.rejected.pageOf(runId, { limit: 20, offset: 0 });
      return { ...summaryFromRun(run!, { total, first: rows }), status: outcome.status, error: outcome.error, ...lasting(outcome) };
    } catch {
      const now = new Date().toISOString();
      return {
        runId, connectionId, mode: 'incremental', trigger: 'admin', status: outcome.status, startedAt: now, finishedAt: now, direction: 'sync', flow: null,
        streams: {}, counters: zeroServiceCounters(), rejectedCount: 0, rejected: [], error: outcome.error, ...lasting(outcome),
      };
    }
  }
}

function lasting(outcome: RunOutcome): Pick<RunSummary, 'lasting'> {
  return outcome.status === 'failed' && outcome.lasting ? { lasting: true } : {};
}
