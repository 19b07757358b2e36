import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RunEntity, StoredStreamCounters } from '../../store';
import { SERVICE_COUNTER_KEYS } from '../../engine/engine-types';

/** The service's counters summed over the run's acknowledged batches. */
export class RunCountersResponse {
  @ApiProperty() uploaded: number;
  @ApiProperty() processed: number;
  @ApiProperty() saved: number;
  @ApiProperty() skipped_by_status: number;
  @ApiProperty() skipped_by_waiting_visit_info: number;
  @ApiProperty() skipped_by_internal_error: number;
  @ApiProperty() skipped_because_not_changed: number;
  @ApiProperty() skipped_by_invalid_format: number;
  @ApiProperty() skipped_fields_by_invalid_format: number;
}

/** the service's counters, in the engine's order (one list for the whole daemon) */
export const COUNTER_KEYS: readonly (keyof RunCountersResponse)[] = SERVICE_COUNTER_KEYS;

export class RunResponse {
  @ApiProperty() id: number;
  @ApiProperty() connection_id: string;
  @ApiProperty({
    enum: ['incremental', 'full', 'since', 'retry'],
    description: 'retry: a re-send of the rejected records of an earlier run (POST /api/runs/{id}/rejected/retry)',
  })
  mode: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '2025-01-31' }) since: string | null;
  @ApiProperty({ enum: ['schedule', 'admin', 'cli', 'startup'] }) trigger: string;
  @ApiProperty({ enum: ['running', 'succeeded', 'failed', 'interrupted'] }) status: string;
  @ApiProperty({ example: '2025-03-10T09:00:00.000Z' }) started_at: string;
  @ApiPropertyOptional({ type: String, nullable: true }) finished_at: string | null;
  @ApiProperty({
    description: 'per stream: read, unchanged (not sent), sent, rejected, sent_without_visit, uncertain (sent, not known to have landed; not sent again)',
    example: { deals: { read: 20, unchanged: 17, sent: 3, rejected: 0, sent_without_visit: 1 } },
  })
  streams: Partial<Record<string, StoredStreamCounters>>;
  @ApiProperty({ type: RunCountersResponse }) counters: RunCountersResponse;
  @ApiProperty() rejected_count: number;
  @ApiPropertyOptional({ type: String, nullable: true }) error: string | null;
}

export function toRunResponse(run: RunEntity, rejectedCount: number): RunResponse {
  const counters = {} as RunCountersResponse;
  for (const key of COUNTER_KEYS) counters[key] = run[key] ?? 0;
  return {
    id: run.id,
    connection_id: run.connection_id,
    mode: run.mode,
    since: run.since,
    trigger: run.trigger,
    status: run.status,
    started_at: run.started_at,
    finished_at: run.finished_at,
    streams: run.streams ?? {},
    counters,
    rejected_count: rejectedCount,
    error: run.error,
  };
}

export class RunListResponse {
  @ApiProperty({ type: [RunResponse] }) runs: RunResponse[];
  @ApiProperty({ description: 'runs matching the filter, all pages' }) total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
}

export class RunIdResponse {
  @ApiProperty({ description: 'the run started, or (409) the run still going' }) run_id: number;
}
