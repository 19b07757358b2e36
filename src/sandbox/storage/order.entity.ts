import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A stored order. Products, history and custom fields are JSON columns; `hash` fingerprints the
 * normalised input so that an identical re-upload is answered `skipped_because_not_changed`.
 * Dates are UTC `YYYY-MM-DDTHH:MM:SS+0000`, which sorts as text. Arrival order (the tie-breaker among
 * equal creation dates) is SQLite's rowid, which an upsert keeps (the sandbox never runs VACUUM).
 */
@Entity('sb_order')
@Index('ix_sb_order_created', ['projectId', 'creationDate'])
@Index('ix_sb_order_tracker', ['projectId', 'tracker'])
@Index('ix_sb_order_client', ['projectId', 'clientId'])
export class SandboxOrderEntity {
  @PrimaryColumn({ name: 'project_id', type: 'integer' })
  projectId: number;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  id: string;

  @Column({ type: 'varchar', nullable: true })
  name: string | null;

  @Column({ name: 'creation_date', type: 'varchar', length: 32 })
  creationDate: string;

  @Column({ name: 'update_date', type: 'varchar', length: 32, nullable: true })
  updateDate: string | null;

  @Column({ name: 'paid_date', type: 'varchar', length: 32, nullable: true })
  paidDate: string | null;

  @Column({ name: 'status_id', type: 'varchar', length: 64 })
  statusId: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  tracker: string | null;

  @Column({ name: 'client_id', type: 'varchar', length: 128, nullable: true })
  clientId: string | null;

  @Column({ type: 'integer', nullable: true })
  revenue: number | null;

  @Column({ type: 'integer', nullable: true })
  cost: number | null;

  @Column({ type: 'text' })
  fields: string;

  @Column({ type: 'text' })
  products: string;

  @Column({ type: 'text' })
  history: string;

  @Column({ type: 'varchar', length: 64 })
  hash: string;
}
