import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ConnectionRow } from '../records';

/** A configured connection (mirrors the config; `paused` is set by the admin and survives restarts). */
@Entity({ name: 'connection' })
export class ConnectionEntity implements ConnectionRow {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  connector: string;

  /** the connection's settings with secrets redacted: never holds a key or token */
  @Column({ type: 'simple-json' })
  settings: Record<string, unknown>;

  @Column({ type: 'varchar', length: 200, nullable: true })
  schedule: string | null;

  @Column({ type: 'boolean', default: false })
  paused: boolean;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  created_at: string;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  updated_at: string;

  /** the service and project its records were last sent to (TrackerClient.target); null before its first run */
  @Column({ type: 'varchar', length: 500, nullable: true })
  target: string | null;
}
