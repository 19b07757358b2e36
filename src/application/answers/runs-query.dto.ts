import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { RUN_STATUSES, RunStatus } from '../../store';

export const RUNS_MAX_LIMIT = 500;

/** limit/offset paging of list answers */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: RUNS_MAX_LIMIT, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(RUNS_MAX_LIMIT)
  limit: number = 100;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset: number = 0;
}

/** GET /api/runs: the page (50 runs by default) plus filters */
export class RunsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'connection id' })
  @IsOptional()
  @IsString()
  connection?: string;

  @ApiPropertyOptional({ enum: [...RUN_STATUSES] })
  @IsOptional()
  @IsIn(RUN_STATUSES)
  status?: RunStatus;

  @ApiPropertyOptional({ minimum: 1, maximum: RUNS_MAX_LIMIT, default: 50 })
  override limit: number = 50;
}
