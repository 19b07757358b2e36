import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** GET /api/connections: one project's connections (a project the token does not see, or none: an empty list). */
export class ConnectionsQueryDto {
  @ApiPropertyOptional({ description: 'a project name (`default`: the tracker: project)', example: 'acme' })
  @IsOptional()
  @IsString()
  project?: string;
}
