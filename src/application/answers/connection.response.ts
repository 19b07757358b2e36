import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RunResponse } from './run.response';

export type ConnectionState = 'idle' | 'running' | 'paused' | 'failing';
export const CONNECTION_STATES: readonly ConnectionState[] = ['idle', 'running', 'paused', 'failing'];

export class CursorResponse {
  @ApiProperty({ example: '2025-03-10T09:00:00.000Z', description: 'UTC' }) value: string;
  @ApiProperty() set_at: string;
}

/** A scheduled flow's ticks in this daemon since it started (null in the CLI, which runs no timers). */
export class ScheduleTicksResponse {
  @ApiProperty({ description: 'ticks that fired' }) ticks: number;
  @ApiProperty({ description: 'ticks whose run started at once' }) started: number;
  @ApiProperty({ description: 'ticks that found the connection busy and ran as soon as it was free' }) queued: number;
  @ApiProperty({ description: 'ticks that found a run of the flow already waiting and joined it: the flow runs less often than its schedule says' })
  skipped: number;
  @ApiProperty({ description: 'the longest a tick waited for its run to start, in milliseconds' }) max_wait_ms: number;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'UTC of the last skipped tick' }) last_skipped_at: string | null;
  @ApiProperty({ description: 'ticks that could not start a run (the store refused its row, e.g. a full disk; cluster mode: Redis refused its job)' }) failed: number;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'UTC of the last tick that could not start a run' }) last_failed_at: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'why it could not' }) last_failure: string | null;
}

/** One outbound flow of a connection (write-back, lead delivery): its own runs and state, beside the sync's. */
export class FlowStatusResponse {
  @ApiProperty({ example: 'leads' }) flow: string;
  @ApiProperty({ example: 'lead delivery' }) title: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: "the flow's own cron; null: it follows each successful sync" })
  schedule: string | null;
  @ApiProperty({ enum: CONNECTION_STATES, description: "the flow's runs only: running > paused > failing (its last run failed) > idle" })
  state: ConnectionState;
  @ApiPropertyOptional({ type: RunResponse, nullable: true, description: "the flow's last run" }) last_run: RunResponse | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "the flow's next scheduled run (UTC); null when paused, following the sync, or while its schedule does not fire (schedule_halted)" })
  next_run_at: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "why the flow's own schedule does not fire now (no daemon is running; the cluster's Redis is unreachable); null while it fires, or without one" })
  schedule_halted?: string | null;
  @ApiPropertyOptional({ type: ScheduleTicksResponse, nullable: true }) ticks: ScheduleTicksResponse | null;
}

export class ConnectionResponse {
  @ApiProperty() id: string;
  @ApiProperty() connector: string;
  @ApiProperty({ example: 'default', description: 'the project it feeds: a name under projects:, or `default` (the tracker: project)' }) project: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '*/10 * * * *' }) schedule: string | null;
  @ApiProperty() paused: boolean;
  @ApiProperty({ enum: CONNECTION_STATES, description: "the sync's: running > paused > failing (last sync failed) > idle; each outbound flow has its own in `flows`" })
  state: ConnectionState;
  @ApiProperty({ description: 'the connector settings, secrets redacted' }) settings: Record<string, unknown>;
  @ApiProperty({ description: 'per stream', example: { deals: { value: '2025-03-10T09:00:00.000Z', set_at: '2025-03-10T09:01:02.000Z' } } })
  cursors: Record<string, CursorResponse>;
  @ApiPropertyOptional({ type: RunResponse, nullable: true, description: 'the last sync (outbound runs: `flows`)' }) last_run: RunResponse | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'next scheduled run (UTC); null when paused, unscheduled, or while the schedule does not fire (schedule_halted)' })
  next_run_at: string | null;
  @ApiPropertyOptional({
    type: String, nullable: true,
    example: 'no daemon is running (last heartbeat 5m ago, at 2026-11-29T23:18:11.000Z): scheduled runs are not happening',
    description: "why the connection's schedule does not fire now (no daemon is running; the cluster's Redis is unreachable), so no next run is promised; null while it fires, paused or unscheduled",
  })
  schedule_halted?: string | null;
  @ApiPropertyOptional({ type: ScheduleTicksResponse, nullable: true, description: "the scheduled sync's ticks in this daemon" })
  ticks: ScheduleTicksResponse | null;
  @ApiProperty({ type: [FlowStatusResponse], description: 'each outbound flow the connection runs, with its own last run and state' })
  flows: FlowStatusResponse[];
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
