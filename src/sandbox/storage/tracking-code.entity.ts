import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tracking code (counter) of a project. */
@Entity('sb_tracking_code')
export class SandboxTrackingCodeEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ name: 'project_id', type: 'integer' })
  projectId: number;

  @Column({ type: 'text' })
  code: string;
}
