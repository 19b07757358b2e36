import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('sb_project')
export class SandboxProjectEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 8 })
  currency: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  profit: string | null;

  /** `YYYY-MM-DD HH:MM:SS`, as the project list shows it. */
  @Column({ name: 'creation_date', type: 'varchar', length: 32 })
  creationDate: string;

  @Column({ name: 'is_owner', type: 'integer', default: 1 })
  isOwner: number;
}
