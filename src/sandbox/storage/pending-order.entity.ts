import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An order held because its `tracker` visit is not known yet; released when the visit appears. */
@Entity('sb_pending_order')
@Index('ix_sb_pending_visit', ['projectId', 'tracker'])
export class SandboxPendingOrderEntity {
  @PrimaryColumn({ name: 'project_id', type: 'integer' })
  projectId: number;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  tracker: string;

  /** The order as uploaded (raw JSON), replayed through the add-orders rules on release. */
  @Column({ type: 'text' })
  payload: string;
}
