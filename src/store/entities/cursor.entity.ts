import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CursorRow } from '../records';

/** How far a stream of a connection is fully acknowledged (highest updated_at covered). */
@Entity({ name: 'cursor' })
export class CursorEntity implements CursorRow {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  stream: string;

  /** UTC ISO-8601 with offset, e.g. '2025-03-10T09:00:00.000Z' */
  @Column({ type: 'varchar', length: 32 })
  value: string;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  set_at: string;
}
