import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertDeliveryRow, AlertDeliveryStatus } from '../records';

/** One message sent (or being sent) to one alert's channel, with how its delivery went (GET /api/alerts). */
@Entity({ name: 'alert_delivery' })
@Index('idx_alert_delivery_alert', ['alert_id', 'id'])
export class AlertDeliveryEntity implements AlertDeliveryRow {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  alert_id: string;

  /** webhook | slack | telegram | email */
  @Column({ type: 'varchar', length: 16 })
  type: string;

  /** run_failed, recovered, ..., or `test` */
  @Column({ type: 'varchar', length: 40 })
  event: string;

  /** null for a test message */
  @Column({ type: 'varchar', length: 200, nullable: true })
  connection_id: string | null;

  @Column({ type: 'integer', nullable: true })
  run_id: number | null;

  /** `reminder` for a repeat of an active condition */
  @Column({ type: 'boolean', default: false })
  reminder: boolean;

  /** the text sent (no secrets: built from scrubbed parts) */
  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'varchar', length: 16 })
  status: AlertDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** why the last attempt failed (scrubbed) */
  @Column({ type: 'text', nullable: true })
  last_error: string | null;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  created_at: string;

  /** ISO-8601 UTC, once delivered */
  @Column({ type: 'varchar', length: 32, nullable: true })
  sent_at: string | null;

  /** the project (its name in the config) it was made for; null: made before projects were recorded (src/store/project-rows.ts) */
  @Column({ type: 'varchar', length: 200, nullable: true })
  project: string | null;
}
