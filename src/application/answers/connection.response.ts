import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RunResponse } from './run.response';

export type ConnectionState = 'idle' | 'running' | 'paused' | 'failing';
export const CONNECTION_STATES: readonly ConnectionState[] = ['idle', 'running', 'paused', 'failing'];

export class CursorResponse {
  @ApiProperty({ example: '2025-03-10T09:00:00.000Z', description: 'UTC' }) value: string;
  @ApiProperty() set_at: string;
}

export class ConnectionResponse {
  @ApiProperty() id: string;
  @ApiProperty() connector: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '*/10 * * * *' }) schedule: string | null;
  @ApiProperty() paused: boolean;
  @ApiProperty({ enum: CONNECTION_STATES, description: 'running > paused > failing (last run failed) > idle' })
  state: ConnectionState;
  @ApiProperty({ description: 'the connector settings, secrets redacted' }) settings: Record<string, unknown>;
  @ApiProperty({ description: 'per stream', example: { deals: { value: '2025-03-10T09:00:00.000Z', set_at: '2025-03-10T09:01:02.000Z' } } })
  cursors: Record<string, CursorResponse>;
  @ApiPropertyOptional({ type: RunResponse, nullable: true }) last_run: RunResponse | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'next scheduled run (UTC); null when paused or unscheduled' })
  next_run_at: string | null;
}

export class CheckResponse {
  @ApiProperty() connection_id: string;
  @ApiProperty() ok: boolean;
  @ApiProperty() message: string;
}

export class ClearCursorsResponse {
  @ApiProperty() connection_id: string;
  @ApiProperty({ description: 'cursors removed' }) cleared: number;
}
