import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AlertStateRow } from '../records';

/**
 * One condition an alert watches: (alert, connection, event). Active from the first alert until it ends; every
 * send (first alert, reminder, recovered) is claimed on this row with a conditional UPDATE, so among daemons
 * sharing the store exactly one sends it.
 */
@Entity({ name: 'alert_state' })
export class AlertStateEntity implements AlertStateRow {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  alert_id: string;

  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  event: string;

  @Column({ type: 'boolean', default: false })
  active: boolean;

  /** ISO-8601 UTC: when the condition was first alerted (null before) */
  @Column({ type: 'varchar', length: 32, nullable: true })
  first_at: string | null;

  /** ISO-8601 UTC of the last alert or reminder delivered */
  @Column({ type: 'varchar', length: 32, nullable: true })
  last_sent_at: string | null;

  /** ISO-8601 UTC: when it last recovered */
  @Column({ type: 'varchar', length: 32, nullable: true })
  ended_at: string | null;

  /** the run that raised it last (null for no_success_for) */
  @Column({ type: 'integer', nullable: true })
  run_id: number | null;

  /** what was alerted, for reminders and the status page */
  @Column({ type: 'text', nullable: true })
  message: string | null;

  /** ISO-8601 UTC of the last send claimed, delivered or not */
  @Column({ type: 'varchar', length: 32, nullable: true })
  claimed_at: string | null;

  /** ISO-8601 UTC from when a failed delivery is claimable again */
  @Column({ type: 'varchar', length: 32, nullable: true })
  retry_at: string | null;

  /** deliveries failed in a row */
  @Column({ type: 'integer', default: 0 })
  delivery_failures: number;

  /** why the last delivery failed */
  @Column({ type: 'text', nullable: true })
  last_error: string | null;

  /** the project (its name in the config) it was made for; null: made before projects were recorded (src/store/project-rows.ts) */
  @Column({ type: 'varchar', length: 200, nullable: true })
  project: string | null;
}
