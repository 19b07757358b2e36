import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { RejectedRecordRow, RejectionSource } from '../records';

/** A record that did not reach the service: why, where, and a short excerpt of it. */
@Entity({ name: 'rejected_record' })
@Index('idx_rejected_run', ['run_id'])
@Index('idx_rejected_record', ['connection_id', 'stream', 'external_id'])
export class RejectedRecordEntity implements RejectedRecordRow {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  run_id: number;

  @Column({ type: 'varchar', length: 200 })
  connection_id: string;

  @Column({ type: 'varchar', length: 40 })
  stream: string;

  /** the record's id in the source ('' when the row had none) */
  @Column({ type: 'varchar', length: 255 })
  external_id: string;

  @Column({ type: 'varchar', length: 255 })
  field: string;

  @Column({ type: 'text' })
  reason: string;

  /** where it came from, e.g. 'deals.csv row 4' */
  @Column({ type: 'varchar', length: 255, nullable: true })
  ref: string | null;

  /** at most 200 characters of the input */
  @Column({ type: 'varchar', length: 200, nullable: true })
  excerpt: string | null;

  @Column({ type: 'varchar', length: 16 })
  source: RejectionSource;

  /** fingerprint of the rejected version (a changed source record gets a new one and is retried) */
  @Column({ type: 'varchar', length: 64, nullable: true })
  fingerprint: string | null;

  @Column({ type: 'boolean', default: false })
  resolved: boolean;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  created_at: string;
}
