import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A visit; `data` holds the full Visit record of the specification. */
@Entity('sb_visit')
@Index('ix_sb_visit_date', ['projectId', 'date'])
export class SandboxVisitEntity {
  @PrimaryColumn({ name: 'project_id', type: 'integer' })
  projectId: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  date: string;

  @Column({ name: 'first_visit_id', type: 'varchar', length: 64 })
  firstVisitId: string;

  @Column({ type: 'text' })
  data: string;
}
