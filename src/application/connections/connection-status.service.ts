import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsService, SyncService } from '../../engine';
import type { ConnectionRow, CursorRow } from '../../store';
import { ConnectionState, CursorResponse } from '../answers/connection.response';
import { RunResponse } from '../answers/run.response';
import { RunsQueryService } from '../runs/runs-query.service';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';
import { ConnectionStatusResponse, RunFailureResponse } from './connection-status.response';
import { SCHEDULE_CONTROL, ScheduleControl } from './schedule-control';

/** A connection as the admin API and `cli status` show it: state, cursors, last and next run. */
@Injectable()
export class ConnectionStatusService {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly sync: SyncService,
    @Inject(SCHEDULE_CONTROL) private readonly scheduler: ScheduleControl,
    private readonly runs: RunsQueryService,
    private readonly scrubber: SecretScrubber,
  ) {}

  async list(): Promise<ConnectionStatusResponse[]> {
    const all = await this.connections.list();
    return Promise.all(all.map((connection) => this.describe(connection)));
  }

  /** Throws UnknownConnectionError (→ 404) for an id the config does not hold. */
  async get(connectionId: string): Promise<ConnectionStatusResponse> {
    return this.describe(await this.connections.get(connectionId));
  }

  private async describe(connection: ConnectionRow): Promise<ConnectionStatusResponse> {
    const [lastRun, nextRun, cursors] = await Promise.all([
      this.runs.lastRun(connection.id),
      this.scheduler.nextRun(connection.id),
      this.connections.cursors(connection.id),
    ]);
    const failure = this.failureAfter(connection.id, lastRun);
    return {
      id: connection.id,
      connector: connection.connector,
      schedule: connection.schedule ?? null,
      paused: connection.paused,
      state: this.stateOf(connection, lastRun, failure),
      settings: this.scrubber.scrub(connection.settings ?? {}),
      cursors: cursorMap(cursors),
      last_run: lastRun,
      next_run_at: nextRun ? nextRun.toISOString() : null,
      last_failure: failure,
    };
  }

  private stateOf(connection: ConnectionRow, lastRun: RunResponse | null, failure: RunFailureResponse | null): ConnectionState {
    if (this.sync.isRunning(connection.id)) return 'running';
    if (connection.paused) return 'paused';
    if (failure || lastRun?.status === 'failed') return 'failing';
    return 'idle';
  }

  /** The engine's last unrecorded failure, when it came after everything the store shows of the last run. */
  private failureAfter(connectionId: string, lastRun: RunResponse | null): RunFailureResponse | null {
    const failure = this.sync.lastFailure(connectionId);
    if (!failure) return null;
    const lastStored = lastRun ? Date.parse(lastRun.finished_at ?? lastRun.started_at) : Number.NEGATIVE_INFINITY;
    if (failure.at.getTime() < lastStored) return null;
    return { at: failure.at.toISOString(), error: this.scrubber.text(failure.error) };
  }
}

function cursorMap(cursors: CursorRow[]): Record<string, CursorResponse> {
  const out: Record<string, CursorResponse> = {};
  for (const cursor of cursors) out[cursor.stream] = { value: cursor.value, set_at: cursor.set_at };
  return out;
}
