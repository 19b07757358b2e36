import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DaemonRow, DaemonRunningRun } from '../records';

/** A daemon sharing the store: written at start, refreshed by its heartbeat, removed at a clean stop. */
@Entity({ name: 'daemon' })
export class DaemonEntity implements DaemonRow {
  /** the daemon's instance id, the same string as the `holder` of its leases and runs */
  @PrimaryColumn({ type: 'varchar', length: 200 })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  host: string;

  @Column({ type: 'integer' })
  pid: number;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  started_at: string;

  /** ISO-8601 UTC; a daemon whose heartbeat is old is gone */
  @Column({ type: 'varchar', length: 32 })
  heartbeat_at: string;

  @Column({ type: 'simple-json' })
  running: DaemonRunningRun[];
}
