import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Named sequences (document ids per kind, client ids, project ids...), kept across restarts. */
@Entity('sb_counter')
export class SandboxCounterEntity {
  @PrimaryColumn({ type: 'varchar', length: 96 })
  name: string;

  @Column({ type: 'integer' })
  value: number;
}
