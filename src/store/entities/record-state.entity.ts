import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Fingerprint of the last payload the service acknowledged for one source record. */
@Entity({ name: 'record_state' })
export class RecordStateEntity {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  stream: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  external_id: string;

  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  acknowledged_at: string;
}
