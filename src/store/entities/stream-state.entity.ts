import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The connector's Page.state, kept once the whole stream was acknowledged (e.g. a file's content hash). */
@Entity({ name: 'stream_state' })
export class StreamStateEntity {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  stream: string;

  @Column({ type: 'simple-json' })
  state: Record<string, unknown>;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  set_at: string;
}
