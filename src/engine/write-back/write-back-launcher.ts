import { Injectable } from '@nestjs/common';
import { ConnectionConfig } from '../../config/config.schema';
import { WriteBackStore } from '../../store/repositories/write-back.store';
import { TrackerClient } from '../../tracker/tracker-client';
import { ConnectionLookup } from '../connection-lookup';
import { errorText } from '../engine-errors';
import type { EngineLogger } from '../engine-logger';
import type { RunOutcome } from '../run-executor';
import { WriteBackPreview, WriteBackRunner, writeBackPlanOf } from './write-back-runner';

/** Write-back runs and dry runs of a connection, put together from its connector, the tracker client and the store. */
@Injectable()
export class WriteBackLauncher {
  constructor(
    private readonly lookup: ConnectionLookup,
    private readonly tracker: TrackerClient,
    private readonly store: WriteBackStore,
  ) {}

  /** The connection's write-back settings, or null when it has none (then no write-back follows its syncs). */
  planOf(connection: ConnectionConfig): { schedule?: string } | null {
    try {
      const { definition, settings } = this.lookup.connector(connection);
      return definition.write?.plan(settings) ?? null;
    } catch {
      return null;
    }
  }

  async execute(connection: ConnectionConfig, runId: number, signal: AbortSignal, logger: EngineLogger): Promise<RunOutcome> {
    const runner = this.runner(connection, logger, signal);
    try {
      const status = await runner.run(runId);
      logger.log(`write-back: ${Object.entries(runner.counters).map(([k, v]) => `${k} ${v}`).join(' · ')}`);
      return { status, error: null };
    } catch (error) {
      await this.store.recordCounters(runId, runner.counters).catch(() => undefined);
      return { status: 'failed', error: errorText(error) };
    }
  }

  preview(connection: ConnectionConfig, logger: EngineLogger): Promise<WriteBackPreview> {
    return this.runner(connection, logger).preview();
  }

  private runner(connection: ConnectionConfig, logger: EngineLogger, signal?: AbortSignal): WriteBackRunner {
    const { definition, settings } = this.lookup.connector(connection);
    writeBackPlanOf(connection.id, definition, settings);
    return new WriteBackRunner({
      connectionId: connection.id, definition, settings, tracker: this.tracker, store: this.store, logger, signal,
      workDir: this.lookup.workDir(connection.id),
      secrets: this.lookup.secrets(connection.id),
    });
  }
}
