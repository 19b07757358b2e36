import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One window of a project's request budget, shared by every process of this store (RequestBudgetStore).
 * A spacing window (`second`, `op:<limit>`) hands out send times `spacing` apart: `next_at` is the next free one.
 * A count window (`hour`) counts the requests of the current clock hour (`period_start`) and the one before.
 * Instants are epoch milliseconds. Nothing is held: a process that dies leaves only times that pass.
 */
@Entity({ name: 'request_budget' })
export class RequestBudgetEntity {
  /** the project: `<project>@<service base URL>` */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  scope: string;

  /** `second`, `hour` or `op:<operation limit key>` */
  @PrimaryColumn({ type: 'varchar', length: 120 })
  window_name: string;

  @Column({ type: 'double precision', default: 0 })
  next_at: number;

  /** until then the spacing is doubled: the service answered 429 (another integration spends the budget too) */
  @Column({ type: 'double precision', default: 0 })
  penalty_until: number;

  @Column({ type: 'double precision', default: 0 })
  period_start: number;

  @Column({ type: 'integer', default: 0 })
  used: number;

  /** what the previous period used: weighed by the part of it still inside the sliding hour */
  @Column({ type: 'integer', default: 0 })
  prev_used: number;
}
