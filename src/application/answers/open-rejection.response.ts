import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { OpenRejectionRow } from '../../store';

/** One problem of a source record that is rejected and not fixed yet. */
export class OpenRejectionResponse {
  @ApiProperty({ example: 'acme-amo', description: 'the connection that read it (scripts merge several connections\' lists)' }) connection_id: string;
  @ApiProperty({ example: 'deals' }) stream: string;
  @ApiProperty({ description: "the record's id in the source ('' when the row had none)", example: 'D-10004' }) external_id: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'file and row, or the CRM record', example: 'deals.csv row 5' }) ref: string | null;
  @ApiProperty({ example: 'created_at' }) field: string;
  @ApiProperty({ example: '"31.02.2026 10:00" is not a valid date' }) reason: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'at most 200 characters of the input' }) excerpt: string | null;
  @ApiProperty({ enum: ['check', 'connector', 'service'], description: 'who refused it: our checks, the connector, or the service' }) source: string;
  @ApiProperty({ description: 'the run that rejected it last' }) run_id: number;
  @ApiProperty({ description: 'first rejected (ISO-8601 UTC); kept while it stays rejected' }) first_seen: string;
  @ApiProperty({ description: 'last rejected (ISO-8601 UTC)' }) last_seen: string;
}

export function toOpenRejectionResponse(row: OpenRejectionRow): OpenRejectionResponse {
  return {
    connection_id: row.connection_id,
    stream: row.stream,
    external_id: row.external_id,
    ref: row.ref,
    field: row.field,
    reason: row.reason,
    excerpt: row.excerpt,
    source: row.source,
    run_id: row.last_run_id,
    first_seen: row.first_seen,
    last_seen: row.last_seen,
  };
}

export class OpenRejectionListResponse {
  @ApiProperty({ type: [OpenRejectionResponse] }) rejected: OpenRejectionResponse[];
  @ApiProperty({ description: 'open rejections in all (of the stream, when filtered)' }) total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
}
