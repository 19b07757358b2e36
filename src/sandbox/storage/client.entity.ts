import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A client imported from the CRM; `id` is the service's integer id, `externalId` the CRM's. */
@Entity('sb_client')
@Index('ux_sb_client_external', ['projectId', 'externalId'], { unique: true })
export class SandboxClientEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'project_id', type: 'integer' })
  projectId: number;

  @Column({ name: 'external_id', type: 'varchar', length: 128 })
  externalId: string;

  @Column({ type: 'varchar' })
  name: string;

  @Column({ type: 'varchar', nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', nullable: true })
  email: string | null;

  @Column({ type: 'varchar', nullable: true })
  company: string | null;

  @Column({ name: 'birth_date', type: 'varchar', length: 16, nullable: true })
  birthDate: string | null;

  @Column({ type: 'simple-json' })
  fields: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'varchar', length: 32 })
  createdAt: string;
}
