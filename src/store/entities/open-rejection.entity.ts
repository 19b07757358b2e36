import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { OpenRejectionRow, RejectionSource } from '../records';

/**
 * A connection's standing set of open rejections: one row per problem (field) of a source record that is
 * rejected and not fixed yet, whatever run saw it last. A record enters when rejected and leaves when a later
 * run sends it (or finds the service already holds that version), or when a complete read of its stream no
 * longer finds it (src/engine/README.md, "Open rejections").
 */
@Entity({ name: 'open_rejection' })
@Index('idx_open_rejection_seen', ['connection_id', 'stream', 'last_seen'])
export class OpenRejectionEntity implements OpenRejectionRow {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  stream: string;

  /**
   * Which source record: `id:<external_id>`, or `ref:<ref>` when the id cannot tell the record (empty, or the
   * duplicate of another row's id), so that two rows without an id stay two entries.
   */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  record_key: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  field: string;

  /** the record's id in the source ('' when the row had none) */
  @Column({ type: 'varchar', length: 255 })
  external_id: string;

  /** where it was seen last, e.g. 'deals.csv row 4' */
  @Column({ type: 'varchar', length: 255, nullable: true })
  ref: string | null;

  @Column({ type: 'text' })
  reason: string;

  /** at most 200 characters of the input */
  @Column({ type: 'varchar', length: 200, nullable: true })
  excerpt: string | null;

  @Column({ type: 'varchar', length: 16 })
  source: RejectionSource;

  /** ISO-8601 UTC: when the record was first rejected (kept while it stays rejected) */
  @Column({ type: 'varchar', length: 32 })
  first_seen: string;

  /** ISO-8601 UTC: the latest rejection */
  @Column({ type: 'varchar', length: 32 })
  last_seen: string;

  /** the run that rejected it last (its run-level rejected records hold the same row) */
  @Column({ type: 'integer' })
  last_run_id: number;
}

