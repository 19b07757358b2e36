import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { STREAM_ORDER, StreamName } from '../../connectors/canonical';
import { PageQueryDto } from '../../application/answers/runs-query.dto';

/** GET /api/connections/{id}/rejected: the page (100 by default) plus a stream filter */
export class OpenRejectionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: STREAM_ORDER, description: 'one stream; absent = every stream' })
  @IsOptional()
  @IsIn(STREAM_ORDER)
  stream?: StreamName;
}
