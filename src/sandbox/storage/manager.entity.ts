import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A CRM manager; `id` is the CRM id (the list shows it as an integer when it is numeric). */
@Entity('sb_manager')
export class SandboxManagerEntity {
  @PrimaryColumn({ name: 'project_id', type: 'integer' })
  projectId: number;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  id: string;

  @Column({ type: 'varchar' })
  name: string;

  @Column({ type: 'varchar', nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', nullable: true })
  email: string | null;
}
