import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { RejectedRecordRow } from '../../store';

export class RejectedRecordResponse {
  @ApiProperty() id: number;
  @ApiProperty() run_id: number;
  @ApiProperty() stream: string;
  @ApiProperty({ description: "the record's id in the source ('' when the row had none)" }) external_id: string;
  @ApiProperty() field: string;
  @ApiProperty({ example: '"31.02.2025" is not a valid date' }) reason: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'deals.csv row 4' }) ref: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) excerpt: string | null;
  @ApiProperty({ enum: ['check', 'connector', 'service'] }) source: string;
  @ApiProperty() resolved: boolean;
  @ApiProperty() created_at: string;
}

export function toRejectedRecordResponse(record: RejectedRecordRow): RejectedRecordResponse {
  return {
    id: record.id,
    run_id: record.run_id,
    stream: record.stream,
    external_id: record.external_id,
    field: record.field,
    reason: record.reason,
    ref: record.ref,
    excerpt: record.excerpt,
    source: record.source,
    resolved: record.resolved,
    created_at: record.created_at,
  };
}

export class RejectedRecordListResponse {
  @ApiProperty({ type: [RejectedRecordResponse] }) rejected: RejectedRecordResponse[];
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
}
