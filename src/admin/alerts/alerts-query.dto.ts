import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../application/answers/runs-query.dto';
import { ALERT_DELIVERY_STATUSES, AlertDeliveryStatus } from '../../store';

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

  @ApiPropertyOptional({ enum: [...ALERT_DELIVERY_STATUSES], description: 'deliveries in this state only (failed: not delivered)' })
  @IsOptional()
  @IsIn([...ALERT_DELIVERY_STATUSES])
  status?: AlertDeliveryStatus;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  override limit: number = 50;
}
