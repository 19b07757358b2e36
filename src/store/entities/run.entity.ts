import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { RunMode, RunStatus, RunTrigger, SERVICE_COUNTER_KEYS, ServiceCounters, StreamCounters, WriteBackCounters } from '../../runs/run-vocabulary';

/**
 * One sync of one connection; the service's counters (a column each, declared below from SERVICE_COUNTER_KEYS)
 * are summed over its acknowledged batches.
 */
@Entity({ name: 'run' })
@Index('idx_run_connection_status', ['connection_id', 'status'])
export class RunEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  connection_id: string;

  @Column({ type: 'varchar', length: 16 })
  mode: RunMode;

  /** the date a `since` run reads from (as given), else null */
  @Column({ type: 'varchar', length: 40, nullable: true })
  since: string | null;

  @Column({ type: 'varchar', length: 16 })
  trigger: RunTrigger;

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
  status: RunStatus;

  @Column({ type: 'simple-json' })
  streams: Partial<Record<string, StreamCounters>>;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** a write-back run's counters (mode write_back), else null */
  @Column({ type: 'simple-json', nullable: true })
  write_back: WriteBackCounters | null;
}

// a column per add-orders counter, from the one list of their names (the migrations created them)
export interface RunEntity extends ServiceCounters {}
for (const key of SERVICE_COUNTER_KEYS) Column({ type: 'integer', default: 0 })(RunEntity.prototype, key);
