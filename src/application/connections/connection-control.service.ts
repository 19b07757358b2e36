import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsService } from '../../engine';
import { ClearCursorsResponse } from '../answers/connection.response';
import { ConnectionStatusResponse } from './connection-status.response';
import { ConnectionStatusService } from './connection-status.service';
import { SCHEDULE_CONTROL, ScheduleControl } from './schedule-control';

/** Pause, resume and cursor reset: the stored flag first, then the cron job follows it. */
@Injectable()
export class ConnectionControlService {
  constructor(
    private readonly connections: ConnectionsService,
    @Inject(SCHEDULE_CONTROL) private readonly scheduler: ScheduleControl,
    private readonly status: ConnectionStatusService,
  ) {}

  async pause(connectionId: string): Promise<ConnectionStatusResponse> {
    await this.connections.pause(connectionId);
    await this.scheduler.refresh(connectionId);
    return this.status.get(connectionId);
  }

  async resume(connectionId: string): Promise<ConnectionStatusResponse> {
    await this.connections.resume(connectionId);
    await this.scheduler.refresh(connectionId);
    return this.status.get(connectionId);
  }

  /** Whether the connection is paused (UnknownConnectionError for a connection the store does not hold). */
  async isPaused(connectionId: string): Promise<boolean> {
    return (await this.connections.get(connectionId)).paused;
  }

  async clearCursors(connectionId: string): Promise<ClearCursorsResponse> {
    const cleared = await this.connections.clearCursors(connectionId);
    return { connection_id: connectionId, cleared };
  }
}
