import { DataSource, FindOptionsWhere, In } from 'typeorm';
import { AlertDeliveryEntity } from '../entities/alert-delivery.entity';
import { AlertStateEntity } from '../entities/alert-state.entity';
import { isoNow } from '../iso-time';
import type { AlertDeliveryRow, AlertDeliveryStatus, AlertStateRow } from '../records';
import { SerialWriter } from '../serial-writer';
import type { Page } from './rejected-record.store';

/** One watched condition: which alert, which connection, which event. */
export interface AlertKey {
  alertId: string;
  connectionId: string;
  event: string;
}

export type NewAlertDelivery = Pick<AlertDeliveryRow, 'alert_id' | 'type' | 'event' | 'connection_id' | 'run_id' | 'reminder' | 'message'>;

export interface DeliveryFilter {
  alertId?: string;
  connectionId?: string;
  connectionIds?: readonly string[];
  alertIds?: readonly string[];
}

/**
 * Alert conditions and deliveries. Every send is claimed with a conditional UPDATE whose affected-row count
 * says who won (as LeaseStore does): with several daemons on one store, each alert, reminder and recovery is
 * sent by exactly one of them.
 */
export class AlertStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /**
   * The condition holds: 'first' when it was not active (this caller sends the alert), 'reminder' when it was
   * and its last send is at least `repeatMs` old (this caller sends a reminder), else null (nothing to send).
   */
  async raise(key: AlertKey, what: { runId: number | null; message: string }, repeatMs: number): Promise<'first' | 'reminder' | null> {
    await this.ensureRow(key);
    const now = isoNow();
    const first = await this.updateWhere(key, { active: true, first_at: now, last_sent_at: now, ended_at: null, run_id: what.runId, message: what.message }, 'active = :no', { no: false });
    if (first) return 'first';
    return (await this.remind(key, repeatMs, what)) ? 'reminder' : null;
  }

  /** Claims a reminder of an active condition whose last send is at least `repeatMs` old. */
  async remind(key: AlertKey, repeatMs: number, what?: { runId: number | null; message: string }): Promise<boolean> {
    const set: Partial<AlertStateEntity> = { last_sent_at: isoNow() };
    if (what) Object.assign(set, { run_id: what.runId, message: what.message });
    const cutoff = new Date(Date.now() - repeatMs).toISOString();
    return this.updateWhere(key, set, 'active = :yes AND last_sent_at <= :cutoff', { yes: true, cutoff });
  }

  /** The condition ended: true for the one caller that ends an active condition (it sends `recovered`). */
  end(key: AlertKey): Promise<boolean> {
    return this.updateWhere(key, { active: false, ended_at: isoNow() }, 'active = :yes', { yes: true });
  }

  state(key: AlertKey): Promise<AlertStateRow | null> {
    return this.dataSource.getRepository(AlertStateEntity).findOneBy({ alert_id: key.alertId, connection_id: key.connectionId, event: key.event });
  }

  /** Active conditions, oldest first. */
  active(): Promise<AlertStateRow[]> {
    return this.dataSource.getRepository(AlertStateEntity).find({ where: { active: true }, order: { first_at: 'ASC' } });
  }

  async addDelivery(row: NewAlertDelivery): Promise<AlertDeliveryRow> {
    return this.writer.run((m) =>
      m.getRepository(AlertDeliveryEntity).save({ ...row, status: 'pending' as const, attempts: 0, last_error: null, created_at: isoNow(), sent_at: null }),
    );
  }

  async updateDelivery(id: number, patch: { status: AlertDeliveryStatus; attempts: number; last_error: string | null; sent_at?: string | null }): Promise<void> {
    await this.writer.run((m) => m.getRepository(AlertDeliveryEntity).update({ id }, patch));
  }

  /** Deliveries still `pending` though created before `cutoff` (ISO): their daemon stopped mid-way. Marked failed; how many. */
  async abandonPending(cutoff: string, reason: string): Promise<number> {
    const result = await this.writer.run((m) =>
      m.createQueryBuilder().update(AlertDeliveryEntity).set({ status: 'failed', last_error: reason })
        .where('status = :pending AND created_at < :cutoff', { pending: 'pending', cutoff }).execute(),
    );
    return result.affected ?? 0;
  }

  /**
   * Newest first, and how many match. `connectionIds`: of these connections only (an empty list: none; a test
   * message has no connection); `alertIds`: of these alerts only (an empty list: none).
   */
  async deliveries(filter: DeliveryFilter, page: Page): Promise<{ rows: AlertDeliveryRow[]; total: number }> {
    const where: FindOptionsWhere<AlertDeliveryEntity> = {};
    if (filter.alertId) where.alert_id = filter.alertId;
    if (filter.alertIds) {
      const ids = filter.alertId ? filter.alertIds.filter((id) => id === filter.alertId) : filter.alertIds;
      if (!ids.length) return { rows: [], total: 0 };
      where.alert_id = In([...ids]);
    }
    if (filter.connectionId) where.connection_id = filter.connectionId;
    if (filter.connectionIds) {
      const ids = filter.connectionId ? filter.connectionIds.filter((id) => id === filter.connectionId) : filter.connectionIds;
      if (!ids.length) return { rows: [], total: 0 };
      where.connection_id = In([...ids]);
    }
    const [rows, total] = await this.dataSource.getRepository(AlertDeliveryEntity).findAndCount({ where, order: { id: 'DESC' }, take: page.limit, skip: page.offset });
    return { rows, total };
  }

  private async ensureRow(key: AlertKey): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().insert().into(AlertStateEntity)
        .values({ alert_id: key.alertId, connection_id: key.connectionId, event: key.event, active: false, first_at: null, last_sent_at: null, ended_at: null, run_id: null, message: null })
        .orIgnore().execute(),
    );
  }

  private async updateWhere(key: AlertKey, set: Partial<AlertStateEntity>, condition: string, params: Record<string, unknown>): Promise<boolean> {
    const result = await this.writer.run((m) =>
      m.createQueryBuilder().update(AlertStateEntity).set(set)
        .where('alert_id = :alertId AND connection_id = :connectionId AND event = :event', { ...key })
        .andWhere(condition, params)
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }
}
