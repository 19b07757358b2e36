import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../application/answers/runs-query.dto';

/** GET /api/alerts: deliveries paged (50 by default), optionally of one alert or connection */
export class AlertsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'alert id' })
  @IsOptional()
  @IsString()
  alert?: string;

  @ApiPropertyOptional({ description: 'connection id' })
  @IsOptional()
  @IsString()
  connection?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  override limit: number = 50;
}
