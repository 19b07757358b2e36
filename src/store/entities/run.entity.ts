import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { OutboundFlowName, RunDirection, RunMode, RunStatus, RunTrigger, SERVICE_COUNTER_KEYS, ServiceCounters, StreamCounters, WriteBackCounters } from '../../runs/run-vocabulary';
import { RunRow, writeBackCountersOf } from '../records';

/**
 * One run of one connection, a sync or an outbound flow (`direction`); the service's counters (a column each, declared below from SERVICE_COUNTER_KEYS)
 * are summed over its acknowledged batches. The store hands it out as a plain RunRow (records.ts: toRunRow).
 */
@Entity({ name: 'run' })
@Index('idx_run_connection_status', ['connection_id', 'status'])
export class RunEntity implements RunRow {
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

  /** `sync` (source → service) or `outbound` (service → CRM: `flow` names the flow, and so does `mode`) */
  @Column({ type: 'varchar', length: 16, default: 'sync' })
  direction: RunDirection;

  /** an outbound run's flow (`write_back`), else null */
  @Column({ type: 'varchar', length: 40, nullable: true })
  flow: OutboundFlowName | null;

  /** an outbound run's counters (the names its flow's description gives), else null */
  @Column({ type: 'simple-json', nullable: true })
  flow_counters: Record<string, number> | null;

  /** the project (its name in the config) it was made for; null: made before projects were recorded (src/store/project-rows.ts) */
  @Column({ type: 'varchar', length: 200, nullable: true })
  project: string | null;

  /** a write-back run's counters (flow write_back), else null: what write-back runs always showed */
  get write_back(): WriteBackCounters | null {
    return writeBackCountersOf(this);
  }
}

// a column per add-orders counter, from the one list of their names (the migrations created them)
export interface RunEntity extends ServiceCounters {}
for (const key of SERVICE_COUNTER_KEYS) Column({ type: 'integer', default: 0 })(RunEntity.prototype, key);
