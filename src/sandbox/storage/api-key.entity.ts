import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An Api-key and the projects it may address. */
@Entity('sb_api_key')
export class SandboxApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  key: string;

  @Column({ type: 'simple-json' })
  projects: number[];
}
