import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LeaseRow } from '../records';

/** Who runs a connection now; taken atomically, renewed while running, released at the end. */
@Entity({ name: 'lease' })
export class LeaseEntity implements LeaseRow {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  /** the holding daemon's instance id (host:pid:nonce, see DaemonRow.id); '' when free */
  @Column({ type: 'varchar', length: 200 })
  holder: string;

  @Column({ type: 'integer', nullable: true })
  run_id: number | null;

  /** ISO-8601 UTC; a lease past it may be taken by anyone */
  @Column({ type: 'varchar', length: 32 })
  expires_at: string;

  /** ISO-8601 UTC of the latest scheduled tick a daemon claimed: each tick runs once across daemons */
  @Column({ type: 'varchar', length: 32, nullable: true })
  last_slot: string | null;
}
