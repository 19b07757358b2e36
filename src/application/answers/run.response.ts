import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  RUN_DIRECTIONS, RUN_STATUSES, RUN_TRIGGERS, RunRow, SERVICE_COUNTER_KEYS, ServiceCounters, StreamCounters, SYNC_MODES, WriteBackCounters,
} from '../../store';
import { OUTBOUND_FLOW_NAMES, OUTBOUND_FLOWS } from '../flow-descriptions';
import { ADD_ORDERS_COUNTER_MEANINGS } from '../../tracker/types/orders.types';

/** The service's counters summed over the run's acknowledged batches: a property per add-orders counter (below). */
export class RunCountersResponse {}
export interface RunCountersResponse extends ServiceCounters {}
for (const key of SERVICE_COUNTER_KEYS) {
  ApiProperty({ type: Number, description: ADD_ORDERS_COUNTER_MEANINGS[key] })(RunCountersResponse.prototype, key);
}

/** A write-back run's counters (mode write_back): a property per counter, with its meaning. */
export class WriteBackCountersResponse {}
export interface WriteBackCountersResponse extends WriteBackCounters {}
for (const [key, meaning] of Object.entries(OUTBOUND_FLOWS.write_back.counters)) {
  ApiProperty({ type: Number, description: meaning })(WriteBackCountersResponse.prototype, key);
}

export class RunResponse {
  @ApiProperty() id: number;
  @ApiProperty() connection_id: string;
  @ApiPropertyOptional({
    type: String, nullable: true,
    description: 'the project (its name in the config) the connection fed when the run started; null for runs from before projects were recorded (they count as the connection\'s project of the moment)',
  })
  project: string | null;
  @ApiProperty({
    enum: [...SYNC_MODES, ...OUTBOUND_FLOW_NAMES],
    description:
      'retry: a re-send of the rejected records of an earlier run (POST /api/runs/{id}/rejected/retry); an outbound run\'s mode is its flow (write_back: attribution written back into the CRM)',
  })
  mode: string;
  @ApiProperty({ enum: [...RUN_DIRECTIONS], description: 'sync: source → service; outbound: service → CRM (flow names the flow)' })
  direction: string;
  @ApiPropertyOptional({ enum: [...OUTBOUND_FLOW_NAMES], nullable: true, description: "an outbound run's flow, else null" })
  flow: string | null;
  @ApiPropertyOptional({
    type: Object,
    nullable: true,
    description: `an outbound run's counters, by flow: ${OUTBOUND_FLOW_NAMES.map((flow) => `${flow}: ${Object.entries(OUTBOUND_FLOWS[flow].counters).map(([k, v]) => `${k} (${v})`).join(', ')}`).join('; ')}`,
  })
  flow_counters: Record<string, number> | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: '2025-01-31' }) since: string | null;
  @ApiProperty({ enum: [...RUN_TRIGGERS] }) trigger: string;
  @ApiProperty({ enum: [...RUN_STATUSES] }) status: string;
  @ApiProperty({ example: '2025-03-10T09:00:00.000Z' }) started_at: string;
  @ApiPropertyOptional({ type: String, nullable: true }) finished_at: string | null;
  @ApiProperty({
    description: 'per stream: read, unchanged (not sent), sent, rejected, sent_without_visit, uncertain (sent, not known to have landed; not sent again), skipped_fields_by_invalid_format (optional fields the connector could not read, left out of records sent), deferred_future (records held back as dated in the future, e.g. a typo in updated_at), notices',
    example: { deals: { read: 20, unchanged: 17, sent: 3, rejected: 0, sent_without_visit: 1 } },
  })
  streams: Partial<Record<string, StreamCounters>>;
  @ApiProperty({ type: RunCountersResponse }) counters: RunCountersResponse;
  @ApiProperty() rejected_count: number;
  @ApiPropertyOptional({ type: String, nullable: true }) error: string | null;
  @ApiPropertyOptional({ type: WriteBackCountersResponse, nullable: true, description: 'a write-back run\'s counters (flow_counters of flow write_back); null otherwise' })
  write_back: WriteBackCountersResponse | null;
}

export function toRunResponse(run: RunRow, rejectedCount: number): RunResponse {
  const counters = {} as RunCountersResponse;
  for (const key of SERVICE_COUNTER_KEYS) counters[key] = run[key] ?? 0;
  return {
    id: run.id,
    connection_id: run.connection_id,
    project: run.project ?? null,
    mode: run.mode,
    direction: run.direction ?? 'sync',
    flow: run.flow ?? null,
    flow_counters: run.flow_counters ? { ...run.flow_counters } : null,
    since: run.since,
    trigger: run.trigger,
    status: run.status,
    started_at: run.started_at,
    finished_at: run.finished_at,
    streams: run.streams ?? {},
    counters,
    rejected_count: rejectedCount,
    error: run.error,
    write_back: run.write_back ? { ...run.write_back } : null, // a copy: the scrubber takes a shared object for a cycle
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
