import { Injectable } from '@nestjs/common';
import { ConnectionsService, SyncService } from '../../engine';
import { SchedulerService } from '../../scheduler';
import { ConnectionEntity, CursorEntity } from '../../store';
import { ConnectionResponse, ConnectionState, CursorResponse } from '../dto/connection.response';
import { RunResponse } from '../dto/run.response';
import { RunsQueryService } from '../runs/runs-query.service';
import { SecretScrubber } from '../secrets/secret-scrubber.service';

/** A connection as the admin API and `cli status` show it: state, cursors, last and next run. */
@Injectable()
export class ConnectionStatusService {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly sync: SyncService,
    private readonly scheduler: SchedulerService,
    private readonly runs: RunsQueryService,
    private readonly scrubber: SecretScrubber,
  ) {}

  async list(): Promise<ConnectionResponse[]> {
    const all = await this.connections.list();
    return Promise.all(all.map((connection) => this.describe(connection)));
  }

  /** Throws UnknownConnectionError (→ 404) for an id the config does not hold. */
  async get(connectionId: string): Promise<ConnectionResponse> {
    return this.describe(await this.connections.get(connectionId));
  }

  private async describe(connection: ConnectionEntity): Promise<ConnectionResponse> {
    const [lastRun, nextRun, cursors] = await Promise.all([
      this.runs.lastRun(connection.id),
      this.scheduler.nextRun(connection.id),
      this.connections.cursors(connection.id),
    ]);
    return {
      id: connection.id,
      connector: connection.connector,
      schedule: connection.schedule ?? null,
      paused: connection.paused,
      state: this.stateOf(connection, lastRun),
      settings: this.scrubber.scrub(connection.settings ?? {}),
      cursors: cursorMap(cursors),
      last_run: lastRun,
      next_run_at: nextRun ? nextRun.toISOString() : null,
    };
  }

  private stateOf(connection: ConnectionEntity, lastRun: RunResponse | null): ConnectionState {
    if (this.sync.isRunning(connection.id)) return 'running';
    if (connection.paused) return 'paused';
    if (lastRun?.status === 'failed') return 'failing';
    return 'idle';
  }
}

function cursorMap(cursors: CursorEntity[]): Record<string, CursorResponse> {
  const out: Record<string, CursorResponse> = {};
  for (const cursor of cursors) out[cursor.stream] = { value: cursor.value, set_at: cursor.set_at };
  return out;
}
