import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WebhookCallRow } from '../records';

/**
 * The last webhook call of a connection (POST /hooks/{connection}), for the status page: when it came, what
 * became of it, and when a call was last accepted. One row per connection, overwritten by each call.
 */
@Entity({ name: 'webhook_call' })
export class WebhookCallEntity implements WebhookCallRow {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  last_call_at: string;

  /** accepted, refused, too_large, rate_limited or paused */
  @Column({ type: 'varchar', length: 20 })
  last_outcome: string;

  /** ISO-8601 UTC of the last accepted call; '' when none was */
  @Column({ type: 'varchar', length: 32, default: '' })
  last_accepted_at: string;

  /** the project (its name in the config) it was made for; null: made before projects were recorded (src/store/project-rows.ts) */
  @Column({ type: 'varchar', length: 200, nullable: true })
  project: string | null;
}
