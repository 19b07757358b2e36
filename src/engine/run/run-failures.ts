import { Injectable } from '@nestjs/common';
import { RunStore } from '../../store/repositories/run.store';
import { errorText } from '../engine-errors';
import { EngineLogger } from '../engine-logger';
import type { RunOutcome } from './run-executor';

/** A run that the store could not record: its start, or its end. Kept in memory, since the store failed. */
export interface RunFailure {
  at: Date;
  error: string;
}

/**
 * What the store refused to record, per connection: the last such failure (which the status shows, since
 * stored runs cannot), and the end of a run that could not be written (written before the connection's
 * next run, else that run would read 'interrupted').
 */
@Injectable()
export class RunFailures {
  private readonly failures = new Map<string, RunFailure>();
  private readonly unrecordedEnds = new Map<string, { runId: number; outcome: RunOutcome }>();

  constructor(private readonly runs: RunStore) {}

  /** The last run of the connection that the store could not record, or null (cleared by a later recorded end). */
  last(connectionId: string): RunFailure | null {
    const failure = this.failures.get(connectionId);
    return failure ? { ...failure } : null;
  }

  /** A start the store refused (lease or run row): kept as the connection's last failure, and said plainly. */
  startRefused(connectionId: string, cause: unknown): Error {
    const error = `the store could not record the run: ${errorText(cause)}`;
    this.failures.set(connectionId, { at: new Date(), error });
    return new Error(`connection ${connectionId}: ${error}`, { cause });
  }

  /** Writes the run's end; a refusal is logged and kept, to be written before the connection's next run. */
  async recordEnd(connectionId: string, runId: number, outcome: RunOutcome, logger: EngineLogger): Promise<void> {
    try {
      await this.runs.finish(runId, outcome.status, outcome.error);
      this.failures.delete(connectionId);
    } catch (e) {
      logger.error(`could not record the end of the run: ${errorText(e)}`);
      this.unrecordedEnds.set(connectionId, { runId, outcome });
      const why = outcome.status === 'failed' && outcome.error ? ` (the run failed: ${outcome.error})` : '';
      this.failures.set(connectionId, { at: new Date(), error: `the store could not record the end of run ${runId}: ${errorText(e)}${why}` });
    }
  }

  /** The end of the previous run that the store refused then: written now, while the lease is held. */
  async recordPendingEnd(connectionId: string): Promise<void> {
    const end = this.unrecordedEnds.get(connectionId);
    if (!end) return;
    await this.runs.finish(end.runId, end.outcome.status, end.outcome.error);
    this.unrecordedEnds.delete(connectionId);
  }
}
