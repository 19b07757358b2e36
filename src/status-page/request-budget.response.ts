import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class BudgetRemaining {
  @ApiProperty({ description: 'requests left in the sliding hour (tracker.rate_limit.per_hour less what the installation sent)' }) hour: number;
  @ApiProperty({ description: 'send times free in the coming second' }) second: number;
}

/** The project's request budget shared by every daemon and CLI process of the store, as this daemon sees it. */
export class RequestBudgetResponse {
  @ApiProperty({ description: "false when tracker.rate_limit is off (no budget is kept)" }) enabled: boolean;
  @ApiPropertyOptional({ example: 8, nullable: true, type: Number }) per_second: number | null;
  @ApiPropertyOptional({ example: 4000, nullable: true, type: Number }) per_hour: number | null;
  @ApiProperty({ description: "this daemon's requests waiting for the budget now" }) waiting: number;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'since when the oldest of them waits (ISO-8601 UTC)' })
  waiting_since: string | null;
  @ApiProperty({ description: 'how long the oldest of them has waited, in seconds (0: none waits)' }) longest_wait_seconds: number;
  @ApiProperty({ description: "time this daemon's requests spent waiting for the budget, summed" }) wait_seconds_total: number;
  @ApiPropertyOptional({ type: BudgetRemaining, nullable: true }) remaining: BudgetRemaining | null;
}
