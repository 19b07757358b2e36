import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { LeadDeliveryRow } from '../records';

/**
 * One proxy lead of the service and what lead delivery (outbound flow `leads`) made of it in the connection's CRM:
 * at most one deal, ever. `pending` is written BEFORE a create is sent: a lead found pending later (a crash, a
 * timeout, a dropped connection) may have its deal already, and is looked up in the CRM by lead_id_field before
 * anything is sent again.
 */
@Entity({ name: 'lead_delivery' })
@Index('idx_lead_delivery_day', ['connection_id', 'lead_day'])
export class LeadDeliveryEntity implements LeadDeliveryRow {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  connection_id: string;

  /** the proxy lead's id in the service */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  lead_id: string;

  /** pending (a create or note was sent, its outcome unknown) | created (a new deal) | attached (a note on a deal) */
  @Column({ type: 'varchar', length: 16 })
  state: 'pending' | 'created' | 'attached';

  /** what the pending attempt was: the lead's new contact (no deal sent yet), its deal, or a note */
  @Column({ type: 'varchar', length: 8, default: 'deal' })
  attempt: 'contact' | 'deal' | 'note';

  /** the CRM deal: the one created, or the one the note went on */
  @Column({ type: 'varchar', length: 100, nullable: true })
  deal_id: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  contact_id: string | null;

  /** the note's id (attached) */
  @Column({ type: 'varchar', length: 100, nullable: true })
  note_id: string | null;

  /** the service's day of the lead (its creation_date, UTC): YYYY-MM-DD */
  @Column({ type: 'varchar', length: 10 })
  lead_day: string;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  attempted_at: string;

  /** ISO-8601 UTC; null while pending */
  @Column({ type: 'varchar', length: 32, nullable: true })
  delivered_at: string | null;

  @Column({ type: 'integer', nullable: true })
  run_id: number | null;
}
