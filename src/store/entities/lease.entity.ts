import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Who runs a connection now; taken atomically, renewed while running, released at the end. */
@Entity({ name: 'lease' })
export class LeaseEntity {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  /** host:pid:nonce of the holding process; '' when free */
  @Column({ type: 'varchar', length: 200 })
  holder: string;

  @Column({ type: 'integer', nullable: true })
  run_id: number | null;

  /** ISO-8601 UTC; a lease past it may be taken by anyone */
  @Column({ type: 'varchar', length: 32 })
  expires_at: string;
}
