import { DataSource, In } from 'typeorm';
import { CursorEntity } from '../entities/cursor.entity';
import { LeadDeliveryEntity } from '../entities/lead-delivery.entity';
import { RejectedRecordEntity } from '../entities/rejected-record.entity';
import { isoNow } from '../iso-time';
import type { LeadDeliveryRow } from '../records';
import { SerialWriter } from '../serial-writer';
import { CursorStore } from './cursor.store';
import { OpenRejectionStore } from './open-rejection.store';

/** The record_state stream (and rejected-record stream) of lead delivery; also its cursor's stream. */
export const LEADS_STREAM = 'leads';

const IDS_PER_QUERY = 900;

/** What a lead became. */
export interface LeadOutcome {
  state: 'created' | 'attached';
  dealId: string;
  contactId: string | null;
  noteId?: string | null;
}

/**
 * What lead delivery keeps per connection: proxy lead → CRM deal (`lead_delivery`, LeadDeliveryRow, `pending` before a create
 * is sent), the first day of the proxy-lead window not yet complete (a cursor of stream `leads`), and the open
 * rejections of refused leads until they are delivered.
 */
export class LeadDeliveryStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /** The rows of these leads, by lead id. */
  async of(connectionId: string, leadIds: string[]): Promise<Map<string, LeadDeliveryRow>> {
    const found = new Map<string, LeadDeliveryRow>();
    for (let i = 0; i < leadIds.length; i += IDS_PER_QUERY) {
      const rows = await this.dataSource.getRepository(LeadDeliveryEntity).findBy({ connection_id: connectionId, lead_id: In(leadIds.slice(i, i + IDS_PER_QUERY)) });
      for (const row of rows) found.set(row.lead_id, row);
    }
    return found;
  }

  /** Every row of the connection (tests, the dry run's totals). */
  all(connectionId: string): Promise<LeadDeliveryRow[]> {
    return this.dataSource.getRepository(LeadDeliveryEntity).find({ where: { connection_id: connectionId }, order: { lead_id: 'ASC' } });
  }

  /** Written before a create (the lead's contact, its deal) or a note is sent: from now on, the outcome of this lead is unknown until recorded. */
  async pending(connectionId: string, leadId: string, leadDay: string, attempt: 'contact' | 'deal' | 'note', runId: number | null, contactId: string | null, dealId: string | null = null): Promise<void> {
    await this.writer.run((m) => m.getRepository(LeadDeliveryEntity).save({
      connection_id: connectionId, lead_id: leadId, state: 'pending', attempt, deal_id: dealId, contact_id: contactId, note_id: null,
      lead_day: leadDay, attempted_at: isoNow(), delivered_at: null, run_id: runId,
    }));
  }

  /** The lead has its deal (or its note): kept for good; its earlier refusals are resolved and leave the open rejections. */
  async delivered(connectionId: string, leadId: string, leadDay: string, outcome: LeadOutcome, runId: number | null): Promise<void> {
    const now = isoNow();
    await this.writer.transaction(async (m) => {
      await m.getRepository(LeadDeliveryEntity).save({
        connection_id: connectionId, lead_id: leadId, state: outcome.state, attempt: outcome.state === 'created' ? 'deal' : 'note',
        deal_id: outcome.dealId, contact_id: outcome.contactId, note_id: outcome.noteId ?? null, lead_day: leadDay, attempted_at: now, delivered_at: now, run_id: runId,
      });
      await m.getRepository(RejectedRecordEntity).update({ connection_id: connectionId, stream: LEADS_STREAM, external_id: leadId, resolved: false }, { resolved: true });
      await OpenRejectionStore.dropEarlier(m, connectionId, LEADS_STREAM, -1, [`id:${leadId}`]);
    });
  }

  /** A lead the CRM refused stays among the connection's open rejections until it is delivered. */
  async refused(connectionId: string, leadId: string, runId: number, field: string, reason: string): Promise<void> {
    await this.writer.transaction(async (m) => {
      // the CRM took nothing: the lead's attempt is no longer unknown
      await m.getRepository(LeadDeliveryEntity).delete({ connection_id: connectionId, lead_id: leadId, state: 'pending' });
      await OpenRejectionStore.record(m, runId, [{
        run_id: runId, connection_id: connectionId, stream: LEADS_STREAM, external_id: leadId, field, reason: reason.slice(0, 2000),
        ref: null, excerpt: null, source: 'connector', fingerprint: '',
      }], isoNow());
    });
  }

  /** The first day (YYYY-MM-DD) of the window not yet complete, or null before the first pass. */
  async windowStart(connectionId: string): Promise<string | null> {
    const row = await this.dataSource.getRepository(CursorEntity).findOneBy({ connection_id: connectionId, stream: LEADS_STREAM });
    return row ? row.value.slice(0, 10) : null;
  }

  /** Days before `day` are complete (every lead handled): later passes read from `day` on. Only forward. */
  async completeBefore(connectionId: string, day: string): Promise<void> {
    await this.writer.transaction((m) => CursorStore.advance(m, connectionId, LEADS_STREAM, new Date(`${day}T00:00:00.000Z`)));
  }
}
