import type { AlertKey, AlertRaise, AlertStore } from '../store/repositories/alert.store';
import type { AlertStateRow } from '../store/records';
import type { AlertLogger } from './alert-dispatcher';

type AlertStatePort = Pick<AlertStore, 'raise' | 'remind' | 'end' | 'delivered' | 'deliveryFailed' | 'recoveriesDue' | 'claimRecovery' | 'put' | 'state' | 'active'>;

/**
 * The alerts' conditions (alert, connection, event) and their sends, claimed on their `alert_state` rows so that
 * daemons sharing a store send each once. When the store cannot take a write (a full disk, a failing disk: the very
 * thing an alert may be about), the claim is made on a copy of the row kept here, the message goes out all the
 * same, and the copy is written to the store at the next operation on the condition or the next check, once the
 * store takes writes again. The same rules hold for the copy as for the row: one alert, a reminder per `repeat`,
 * a failed delivery tried again after its backoff, one `recovered`. A daemon that stops before the store takes the
 * copy loses it (the condition is alerted again by the next daemon).
 */
export class AlertClaims {
  /** rows the store has not taken yet, by key */
  private readonly memory = new Map<string, AlertStateRow>();
  private storeFailing = false;

  constructor(
    private readonly store: AlertStatePort,
    private readonly logger: AlertLogger,
  ) {}

  /** 'first' (send the alert), 'reminder' (send a reminder), or null (nothing to send). */
  raise(key: AlertKey, what: AlertRaise, repeatMs: number): Promise<'first' | 'reminder' | null> {
    return this.op(key, () => this.store.raise(key, what, repeatMs), (row, now) => {
      if (!row.active) {
        Object.assign(row, {
          active: true, first_at: now, claimed_at: now, last_sent_at: null, ended_at: null, retry_at: null, delivery_failures: 0, last_error: null,
          run_id: what.runId, message: what.message, project: what.project ?? null,
        });
        return 'first';
      }
      return remindRow(row, now, repeatMs, what) ? 'reminder' : null;
    });
  }

  remind(key: AlertKey, repeatMs: number): Promise<boolean> {
    return this.op(key, () => this.store.remind(key, repeatMs), (row, now) => remindRow(row, now, repeatMs));
  }

  /** True for the one caller that ends an active condition (it sends `recovered`). */
  end(key: AlertKey): Promise<boolean> {
    return this.op(key, () => this.store.end(key), (row, now) => {
      if (!row.active) return false;
      Object.assign(row, { active: false, ended_at: now, claimed_at: now, retry_at: null, delivery_failures: 0, last_error: null });
      return true;
    });
  }

  delivered(key: AlertKey): Promise<void> {
    const at = new Date().toISOString();
    return this.op(key, () => this.store.delivered(key, at), (row) => {
      Object.assign(row, { last_sent_at: at, retry_at: null, delivery_failures: 0, last_error: null });
    });
  }

  /** Not delivered: claimable again after `backoffMs(failures in a row)`. Answers the row as it is now. */
  failed(key: AlertKey, error: string | null, backoffMs: (failures: number) => number): Promise<AlertStateRow | null> {
    return this.op(key, () => this.store.deliveryFailed(key, error, backoffMs), (row) => {
      if (!row.claimed_at) return null; // a condition never claimed (a store that cannot even be read): nothing to try again
      const failures = (row.delivery_failures ?? 0) + 1;
      Object.assign(row, { delivery_failures: failures, retry_at: new Date(Date.now() + backoffMs(failures)).toISOString(), last_error: error });
      return { ...row };
    });
  }

  /** Active conditions: the store's rows, with the copies it has not taken yet in their place. */
  async active(): Promise<AlertStateRow[]> {
    return this.overlay(await this.store.active().catch(() => [] as AlertStateRow[]), (row) => row.active);
  }

  /** Ended conditions whose `recovered` was not delivered and is due again. */
  async recoveriesDue(): Promise<AlertStateRow[]> {
    const now = new Date().toISOString();
    return this.overlay(await this.store.recoveriesDue().catch(() => [] as AlertStateRow[]), (row) => !row.active && !!row.retry_at && row.retry_at <= now);
  }

  claimRecovery(key: AlertKey): Promise<boolean> {
    return this.op(key, () => this.store.claimRecovery(key), (row, now) => {
      if (row.active || !row.retry_at || row.retry_at > now) return false;
      Object.assign(row, { claimed_at: now, retry_at: null });
      return true;
    });
  }

  /** Writes the copies kept here to the store, oldest first; stops at the first it refuses (tried again later). */
  async flush(): Promise<void> {
    for (const id of [...this.memory.keys()]) if (!(await this.flushOne(id))) return;
  }

  /** How many conditions the store has not taken yet. */
  get unrecorded(): number {
    return this.memory.size;
  }

  /**
   * The operation on the store; while it refuses writes, on the copy (read from the store when it can still be
   * read, else a fresh row). A condition with a copy first hands it to the store: the store's row is behind it.
   */
  private async op<T>(key: AlertKey, viaStore: () => Promise<T>, onCopy: (row: AlertStateRow, now: string) => T): Promise<T> {
    const id = keyOf(key);
    if (this.memory.has(id) && !(await this.flushOne(id))) return onCopy(this.memory.get(id)!, new Date().toISOString());
    try {
      const result = await viaStore();
      this.recovered();
      return result;
    } catch (error) {
      this.failing(error);
      const row = (await this.store.state(key).catch(() => null)) ?? blankRow(key);
      this.memory.set(id, { ...row });
      return onCopy(this.memory.get(id)!, new Date().toISOString());
    }
  }

  private async flushOne(id: string): Promise<boolean> {
    const row = this.memory.get(id);
    if (!row) return true;
    const written = { ...row };
    try {
      await this.store.put(written);
      // an operation on the copy while it was being written: kept, the next flush writes it again
      if (JSON.stringify(this.memory.get(id)) === JSON.stringify(written)) this.memory.delete(id);
      this.recovered();
      return true;
    } catch (error) {
      this.failing(error);
      return false;
    }
  }

  private overlay(rows: AlertStateRow[], keep: (row: AlertStateRow) => boolean): AlertStateRow[] {
    if (this.memory.size === 0) return rows;
    const byKey = new Map(rows.map((row) => [keyOf(rowKey(row)), row]));
    for (const [id, row] of this.memory) byKey.set(id, { ...row });
    return [...byKey.values()].filter(keep);
  }

  private failing(error: unknown): void {
    if (this.storeFailing) return;
    this.storeFailing = true;
    this.logger.error(`alerts: the store cannot record the alerts' state (${(error as Error)?.message ?? error}): kept in memory and sent all the same until it can`);
  }

  private recovered(): void {
    if (!this.storeFailing || this.memory.size > 0) return;
    this.storeFailing = false;
    this.logger.log("alerts: the store records the alerts' state again");
  }
}

/** A reminder is due: the last claim is `repeatMs` old (no failed delivery waiting), or a failed delivery's retry_at has come. */
function remindRow(row: AlertStateRow, now: string, repeatMs: number, what?: AlertRaise): boolean {
  if (!row.active) return false;
  const cutoff = new Date(Date.parse(now) - repeatMs).toISOString();
  const due = row.retry_at ? row.retry_at <= now : !row.claimed_at || row.claimed_at <= cutoff;
  if (!due) return false;
  Object.assign(row, { claimed_at: now, retry_at: null });
  if (what) Object.assign(row, { run_id: what.runId, message: what.message, project: what.project ?? null });
  return true;
}

function blankRow(key: AlertKey): AlertStateRow {
  return {
    alert_id: key.alertId, connection_id: key.connectionId, event: key.event, active: false, first_at: null, last_sent_at: null, ended_at: null,
    run_id: null, message: null, claimed_at: null, retry_at: null, delivery_failures: 0, last_error: null,
  };
}

function rowKey(row: AlertStateRow): AlertKey {
  return { alertId: row.alert_id, connectionId: row.connection_id, event: row.event };
}

function keyOf(key: AlertKey): string {
  return `${key.alertId}\n${key.connectionId}\n${key.event}`;
}
