import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConnectionResponse } from '../answers/connection.response';

/** A run the store could not record (its start or its end), newer than the last stored run. */
export class RunFailureResponse {
  @ApiProperty({ example: '2025-03-10T09:00:00.000Z', description: 'UTC' }) at: string;
  @ApiProperty({ example: 'the store could not record the run: SQLITE_IOERR: disk I/O error' }) error: string;
}

/**
 * A connection with the failure that no stored run shows: when the store cannot be written, the run row
 * itself is missing or stale, so `last_run` alone would still say all is well.
 */
export class ConnectionStatusResponse extends ConnectionResponse {
  @ApiPropertyOptional({ type: RunFailureResponse, nullable: true, description: 'set while state is failing because the store could not record a run' })
  last_failure: RunFailureResponse | null;
}

/** Why no scheduled run fires now. */
export class ScheduleHaltResponse {
  @ApiProperty({ enum: ['no_daemon', 'redis_unreachable'] }) reason: 'no_daemon' | 'redis_unreachable';
  @ApiProperty({ example: 'no daemon is running (last heartbeat 5m ago, at 2026-11-29T23:18:11.000Z): scheduled runs are not happening' }) message: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: "no_daemon: the newest heartbeat a daemon wrote to the store (UTC); null when none is left" })
  last_heartbeat_at: string | null;
}

export class ConnectionStatusListResponse {
  @ApiProperty({ type: [ConnectionStatusResponse] }) connections: ConnectionStatusResponse[];
  @ApiPropertyOptional({
    type: ScheduleHaltResponse, nullable: true,
    description: "set while no scheduled run fires: no daemon of the store is running (the CLI's answer), or cluster mode's Redis is unreachable; null while the schedules fire",
  })
  schedules_halted?: ScheduleHaltResponse | null;
}
