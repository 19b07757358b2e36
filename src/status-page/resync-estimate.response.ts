import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class StreamEstimate {
  @ApiProperty({ description: 'the most records one of the recent runs read' }) records: number;
  @ApiProperty({ description: 'ceil(records / batch_size) for deals, clients and events; one per record otherwise' })
  requests: number;
}

export class ResyncEstimateResponse {
  @ApiProperty() connection_id: string;
  @ApiProperty({ description: 'recent runs the record counts come from (0: nothing to estimate from yet)' }) runs_looked_at: number;
  @ApiProperty() batch_size: number;
  @ApiProperty({ example: { deals: { records: 995, requests: 2 }, managers: { records: 10, requests: 10 } } })
  streams: Record<string, StreamEstimate>;
  @ApiProperty({ description: 'requests a full resync sends, about' }) requests: number;
  @ApiProperty({ example: 5000, description: "the service's hourly budget per project, for all its integrations" })
  service_per_hour: number;
  @ApiProperty({ example: 0.3, description: 'requests as a percentage of service_per_hour' }) service_share_percent: number;
  @ApiPropertyOptional({ type: Number, nullable: true, description: "this daemon's tracker.rate_limit.per_hour (null: off)" })
  daemon_per_hour: number | null;
}
