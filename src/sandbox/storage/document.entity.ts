import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A generic JSON document of one kind in one project, for the sections whose records are only
 * stored and listed back (channels, expenses, scripts, dictionaries, ...).
 */
@Entity('sb_document')
@Index('ux_sb_document_key', ['projectId', 'kind', 'docId'], { unique: true })
export class SandboxDocumentEntity {
  @PrimaryGeneratedColumn()
  pk: number;

  @Column({ name: 'project_id', type: 'integer' })
  projectId: number;

  @Column({ type: 'varchar', length: 64 })
  kind: string;

  @Column({ name: 'doc_id', type: 'varchar', length: 128 })
  docId: string;

  @Column({ type: 'text' })
  data: string;

  @Column({ name: 'created_at', type: 'varchar', length: 32 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 32 })
  updatedAt: string;
}
