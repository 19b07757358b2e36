import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsCalendarDate } from '../../application/answers/calendar-date.validator';

export class ResyncDto {
  @ApiPropertyOptional({ description: 'read source records updated since this day; absent = full resync', example: '2025-01-31' })
  @IsOptional()
  @IsCalendarDate()
  since?: string;
}
