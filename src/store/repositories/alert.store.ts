import { DataSource, FindOptionsWhere, In } from 'typeorm';
import { AlertDeliveryEntity } from '../entities/alert-delivery.entity';
import { AlertStateEntity } from '../entities/alert-state.entity';
import { isoNow } from '../iso-time';
import type { AlertDeliveryRow, AlertDeliveryStatus, AlertStateRow } from '../records';
import { SerialWriter } from '../serial-writer';
import type { Page } from './rejected-record.store';
import { ProjectConnections, whereOfProjects } from '../project-rows';

/** One watched condition: which alert, which connection, which event. */
export interface AlertKey {
  alertId: string;
  connectionId: string;
  event: string;
}

export type NewAlertDelivery = Pick<AlertDeliveryRow, 'alert_id' | 'type' | 'event' | 'connection_id' | 'run_id' | 'reminder' | 'message' | 'project'>;

/** What a condition holds for now: the run that raised it, what it says, and the project the connection feeds. */
export interface AlertRaise {
  runId: number | null;
  message: string;
  project?: string | null;
}

export interface DeliveryFilter {
  alertId?: string;
  connectionId?: string;
  connectionIds?: readonly string[];
  alertIds?: readonly string[];
  /** only the deliveries in this state (e.g. `failed`: not delivered) */
  status?: AlertDeliveryStatus;
  /** the deliveries of these projects only (project-rows.ts; instead of connectionIds): a connection's made in another project are left out */
  projects?: ProjectConnections;
}

/**
 * Alert conditions and deliveries. Every send is claimed with a conditional UPDATE whose affected-row count
 * says who won (as LeaseStore does): with several daemons on one store, each alert, reminder and recovery is
 * sent by exactly one of them. A claim is not a delivery: `last_sent_at` moves when the channel took the message
 * (`delivered`); a delivery that failed (`deliveryFailed`) makes its send claimable again at `retry_at`.
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
  async raise(key: AlertKey, what: AlertRaise, repeatMs: number): Promise<'first' | 'reminder' | null> {
    await this.ensureRow(key);
    const now = isoNow();
    const first = await this.updateWhere(key, {
      active: true, first_at: now, claimed_at: now, last_sent_at: null, ended_at: null, retry_at: null, delivery_failures: 0, last_error: null,
      run_id: what.runId, message: what.message, project: what.project ?? null,
    }, 'active = :no', { no: false });
    if (first) return 'first';
    return (await this.remind(key, repeatMs, what)) ? 'reminder' : null;
  }

  /**
   * Claims a reminder of an active condition: its last claim is at least `repeatMs` old, or its last delivery
   * failed and its `retry_at` has come.
   */
  async remind(key: AlertKey, repeatMs: number, what?: AlertRaise): Promise<boolean> {
    const now = isoNow();
    const set: Partial<AlertStateEntity> = { claimed_at: now, retry_at: null };
    if (what) Object.assign(set, { run_id: what.runId, message: what.message, project: what.project ?? null });
    const cutoff = new Date(Date.now() - repeatMs).toISOString();
    return this.updateWhere(key, set, 'active = :yes AND ((retry_at IS NULL AND (claimed_at IS NULL OR claimed_at <= :cutoff)) OR retry_at <= :now)', { yes: true, cutoff, now });
  }

  /** The condition ended: true for the one caller that ends an active condition (it sends `recovered`). */
  end(key: AlertKey): Promise<boolean> {
    const now = isoNow();
    return this.updateWhere(key, { active: false, ended_at: now, claimed_at: now, retry_at: null, delivery_failures: 0, last_error: null }, 'active = :yes', { yes: true });
  }

  /** The claimed send reached its channel. */
  async delivered(key: AlertKey, at = isoNow()): Promise<void> {
    await this.updateWhere(key, { last_sent_at: at, retry_at: null, delivery_failures: 0, last_error: null }, '1 = 1', {});
  }

  /**
   * The claimed send was not delivered (every attempt failed): not counted as sent, claimable again after
   * `backoffMs(failures in a row)`. Answers the row as it is now (null without one).
   */
  async deliveryFailed(key: AlertKey, error: string | null, backoffMs: (failures: number) => number): Promise<AlertStateRow | null> {
    const row = await this.state(key);
    if (!row) return null;
    const failures = (row.delivery_failures ?? 0) + 1;
    const set = { delivery_failures: failures, retry_at: new Date(Date.now() + backoffMs(failures)).toISOString(), last_error: error };
    await this.updateWhere(key, set, '1 = 1', {});
    return { ...row, ...set };
  }

  /** Ended conditions whose `recovered` was not delivered and may be tried again now. */
  recoveriesDue(): Promise<AlertStateRow[]> {
    return this.dataSource.getRepository(AlertStateEntity).createQueryBuilder('s')
      .where('s.active = :no AND s.retry_at IS NOT NULL AND s.retry_at <= :now', { no: false, now: isoNow() })
      .orderBy('s.retry_at', 'ASC').getMany();
  }

  /** Claims the retry of an ended condition's `recovered`: true for the one caller that sends it. */
  claimRecovery(key: AlertKey): Promise<boolean> {
    const now = isoNow();
    return this.updateWhere(key, { claimed_at: now, retry_at: null }, 'active = :no AND retry_at IS NOT NULL AND retry_at <= :now', { no: false, now });
  }

  /** Writes a condition's whole row as given: what a daemon kept in memory while the store could not take it. */
  async put(row: AlertStateRow): Promise<void> {
    await this.ensureRow({ alertId: row.alert_id, connectionId: row.connection_id, event: row.event });
    const { alert_id, connection_id, event, ...rest } = row;
    await this.updateWhere({ alertId: alert_id, connectionId: connection_id, event }, rest, '1 = 1', {});
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
    if (filter.status) where.status = filter.status;
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
    const asked = filter.connectionId;
    const projects = filter.projects && asked ? new Map([...filter.projects].map(([name, ids]) => [name, ids.filter((id) => id === asked)])) : filter.projects;
    const narrowed = projects ? whereOfProjects<AlertDeliveryEntity>(where, projects) : where;
    if (!narrowed) return { rows: [], total: 0 };
    const [rows, total] = await this.dataSource.getRepository(AlertDeliveryEntity).findAndCount({ where: narrowed, order: { id: 'DESC' }, take: page.limit, skip: page.offset });
    return { rows, total };
  }

  private async ensureRow(key: AlertKey): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().insert().into(AlertStateEntity)
        .values({
          alert_id: key.alertId, connection_id: key.connectionId, event: key.event, active: false, first_at: null, last_sent_at: null, ended_at: null, run_id: null, message: null,
          claimed_at: null, retry_at: null, delivery_failures: 0, last_error: null,
        })
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
