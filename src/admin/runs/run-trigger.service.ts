import { Injectable, Logger } from '@nestjs/common';
import { RunInProgressError, RunSummary, StartRunOptions, SyncService } from '../../engine';
import { RunIdResponse } from '../dto/run.response';
import { RunsQueryService } from './runs-query.service';

const RUN_ID_WAIT_MS = 2_000;

/**
 * Starts runs on behalf of an admin request and answers at once with the run id (202); the run
 * goes on in the background. A run already going surfaces as RunInProgressError (→ 409).
 */
@Injectable()
export class RunTriggerService {
  private readonly logger = new Logger('AdminRuns');

  constructor(
    private readonly sync: SyncService,
    private readonly runs: RunsQueryService,
  ) {}

  incremental(connectionId: string): Promise<RunIdResponse> {
    return this.start(connectionId, { mode: 'incremental', trigger: 'admin' });
  }

  /** Full resync, or from a day on when `since` is given. */
  resync(connectionId: string, since?: string): Promise<RunIdResponse> {
    const options: StartRunOptions = since ? { mode: 'since', since, trigger: 'admin' } : { mode: 'full', trigger: 'admin' };
    return this.start(connectionId, options);
  }

  /** A write-back pass (mode write_back): the deals' attribution written into the CRM. */
  async writeBack(connectionId: string): Promise<RunIdResponse> {
    try {
      const { runId, done } = await this.sync.writeBack(connectionId, 'admin');
      this.watch(runId, done);
      return { run_id: runId };
    } catch (error) {
      if (error instanceof RunInProgressError && error.runId === null) throw await this.withRunningId(error);
      throw error;
    }
  }

  async retryRejected(runId: number): Promise<RunIdResponse> {
    await this.runs.entity(runId);
    const { runId: newRunId, done } = await this.sync.retryRejected(runId);
    this.watch(newRunId, done);
    return { run_id: newRunId };
  }

  private async start(connectionId: string, options: StartRunOptions): Promise<RunIdResponse> {
    try {
      const { runId, done } = await this.sync.start(connectionId, options);
      this.watch(runId, done);
      return { run_id: runId };
    } catch (error) {
      if (error instanceof RunInProgressError && error.runId === null) throw await this.withRunningId(error);
      throw error;
    }
  }

  /**
   * A trigger that lands while the other run is still being recorded learns no id from the engine;
   * the 409 must name the running run, so wait (briefly) until the engine knows it.
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
  private watch(runId: number, done: Promise<RunSummary>): void {
    done.catch((error: unknown) => this.logger.error(`run ${runId}: ${(error as Error)?.message ?? String(error)}`));
  }
}
