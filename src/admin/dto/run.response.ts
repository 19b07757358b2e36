import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_MODES, RUN_STATUSES, RUN_TRIGGERS, RunEntity, SERVICE_COUNTER_KEYS, ServiceCounters, StreamCounters } from '../../store';
import { ADD_ORDERS_COUNTER_MEANINGS } from '../../tracker/types/orders.types';

/** The service's counters summed over the run's acknowledged batches: a property per add-orders counter (below). */
export class RunCountersResponse {}
export interface RunCountersResponse extends ServiceCounters {}
for (const key of SERVICE_COUNTER_KEYS) {
  ApiProperty({ type: Number, description: ADD_ORDERS_COUNTER_MEANINGS[key] })(RunCountersResponse.prototype, key);
}

export class RunResponse {
  @ApiProperty() id: number;
  @ApiProperty() connection_id: string;
  @ApiProperty({
    enum: [...RUN_MODES],
    description: 'retry: a re-send of the rejected records of an earlier run (POST /api/runs/{id}/rejected/retry)',
  })
  mode: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '2025-01-31' }) since: string | null;
  @ApiProperty({ enum: [...RUN_TRIGGERS] }) trigger: string;
  @ApiProperty({ enum: [...RUN_STATUSES] }) status: string;
  @ApiProperty({ example: '2025-03-10T09:00:00.000Z' }) started_at: string;
  @ApiPropertyOptional({ type: String, nullable: true }) finished_at: string | null;
  @ApiProperty({
    description: 'per stream: read, unchanged (not sent), sent, rejected, sent_without_visit, uncertain (sent, not known to have landed; not sent again)',
    example: { deals: { read: 20, unchanged: 17, sent: 3, rejected: 0, sent_without_visit: 1 } },
  })
  streams: Partial<Record<string, StreamCounters>>;
  @ApiProperty({ type: RunCountersResponse }) counters: RunCountersResponse;
  @ApiProperty() rejected_count: number;
  @ApiPropertyOptional({ type: String, nullable: true }) error: string | null;
}

export function toRunResponse(run: RunEntity, rejectedCount: number): RunResponse {
  const counters = {} as RunCountersResponse;
  for (const key of SERVICE_COUNTER_KEYS) counters[key] = run[key] ?? 0;
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
