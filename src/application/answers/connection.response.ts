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

export class ProjectStatusResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['progress', 'paid', 'canceled'] }) type: 'progress' | 'paid' | 'canceled';
}

/** One side of a connection's check: the service (Api-key and project) or the source (the connector's own check). */
export class CheckEntryResponse {
  @ApiProperty({ enum: ['service', 'source'], description: 'service: the Api-key and project; source: the CRM or file, with its credentials' })
  name: 'service' | 'source';
  @ApiProperty() ok: boolean;
  @ApiProperty() message: string;
  @ApiPropertyOptional({ type: [String], description: 'problems that do not stop a run but lose data: stages no status_map key covers, a visit_field the CRM lacks' })
  warnings?: string[];
}

export class CheckResponse {
  @ApiProperty() connection_id: string;
  @ApiProperty({ description: 'every entry of `checks` is ok' }) ok: boolean;
  @ApiProperty({ description: 'the entries as one line, e.g. "service: ...; source: ..."' }) message: string;
  @ApiProperty({ type: [CheckEntryResponse], description: 'one entry per side, service first' }) checks: CheckEntryResponse[];
  @ApiProperty({
    type: [ProjectStatusResponse], required: false,
    description: "the project's order statuses, listed when the connection has a status_map or statuses: register",
  })
  project_statuses?: ProjectStatusResponse[];
  @ApiProperty({
    type: [String], required: false,
    description: 'problems that do not fail the check: a status_map target the project does not know, stages statuses: register will add',
  })
  warnings?: string[];
}

export class ClearCursorsResponse {
  @ApiProperty() connection_id: string;
  @ApiProperty({ description: 'cursors removed' }) cleared: number;
}
