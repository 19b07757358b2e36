import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { STREAM_ORDER, StreamName } from '../../connectors/canonical';

export const PREVIEW_MAX_LIMIT = 100;

export class PreviewDto {
  @ApiPropertyOptional({ enum: STREAM_ORDER, description: 'one stream; absent = every stream of the connection' })
  @IsOptional()
  @IsIn(STREAM_ORDER)
  stream?: StreamName;

  @ApiPropertyOptional({ minimum: 1, maximum: PREVIEW_MAX_LIMIT, default: 5 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PREVIEW_MAX_LIMIT)
  limit?: number;
}
