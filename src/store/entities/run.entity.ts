import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type RunModeValue = 'incremental' | 'full' | 'since' | 'retry';
export type RunTriggerValue = 'schedule' | 'admin' | 'cli' | 'startup';
export type RunStatusValue = 'running' | 'succeeded' | 'failed' | 'interrupted';

/** Per-stream counters of a run as stored in `run.streams`. */
export interface StoredStreamCounters {
  read: number;
  unchanged: number;
  sent: number;
  rejected: number;
  sent_without_visit: number;
  /** records whose create call may or may not have landed (not sent again); absent while 0 */
  uncertain?: number;
}

/** One sync of one connection; the service's counters are summed over its acknowledged batches. */
@Entity({ name: 'run' })
@Index('idx_run_connection_status', ['connection_id', 'status'])
export class RunEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  connection_id: string;

  @Column({ type: 'varchar', length: 16 })
  mode: RunModeValue;

  /** the date a `since` run reads from (as given), else null */
  @Column({ type: 'varchar', length: 40, nullable: true })
  since: string | null;

  @Column({ type: 'varchar', length: 16 })
  trigger: RunTriggerValue;

  /** the process that runs it (host:pid:nonce): recovery tells a dead holder's runs apart */
  @Column({ type: 'varchar', length: 200, nullable: true })
  holder: string | null;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  started_at: string;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32, nullable: true })
  finished_at: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: RunStatusValue;

  @Column({ type: 'simple-json' })
  streams: Partial<Record<string, StoredStreamCounters>>;

  @Column({ type: 'integer', default: 0 })
  uploaded: number;

  @Column({ type: 'integer', default: 0 })
  processed: number;

  @Column({ type: 'integer', default: 0 })
  saved: number;

  @Column({ type: 'integer', default: 0 })
  skipped_by_status: number;

  @Column({ type: 'integer', default: 0 })
  skipped_by_waiting_visit_info: number;

  @Column({ type: 'integer', default: 0 })
  skipped_by_internal_error: number;

  @Column({ type: 'integer', default: 0 })
  skipped_because_not_changed: number;

  @Column({ type: 'integer', default: 0 })
  skipped_by_invalid_format: number;

  @Column({ type: 'integer', default: 0 })
  skipped_fields_by_invalid_format: number;

  @Column({ type: 'text', nullable: true })
  error: string | null;
}
