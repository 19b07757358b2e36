import { Injectable } from '@nestjs/common';
import { SandboxPreparedSql } from '../storage/prepared-sql';
import type { StatusType } from '../storage/order-status.entity';
import { serviceTimestamp } from '../storage/timestamps';
import { SandboxWriteLock } from '../storage/write-lock';
import { OrderStatusesService } from '../statuses/order-statuses.service';
import { AddOrdersResult, emptyAddOrdersResult, finishAddOrdersResult } from './add-orders-result';
import { OrderInput, readOrderInput } from './order-input';
import { mergeOrder } from './order-merge';
import { ORDER_COLUMNS, OrderRecord, OrderRow, recordToRow, rowToRecord } from './stored-order';

const SCALAR_COLUMNS = ORDER_COLUMNS.filter((column) => !['fields', 'products', 'history'].includes(column)).join(', ');
/**
 * Orders per multi-row upsert. Small chunks let the rules of the next chunk run while SQLite writes this one;
 * one chunk per 500-order request left the Node thread idle through the whole write.
 */
const WRITE_CHUNK = 100;
const UPDATE_COLUMNS = ORDER_COLUMNS.filter((column) => !['project_id', 'id'].includes(column));

interface BatchState {
  statusTypes: Map<string, StatusType>;
  knownVisits: Set<string>;
  stored: Map<string, OrderRecord>;
  now: string;
}

interface BatchWrites {
  orders: Map<string, OrderRecord>;
  held: Map<string, { tracker: string; payload: string | unknown }>;
  /** Orders that left the waiting room (written, or skipped for another reason). */
  released: Set<string>;
  invalidIds: string[];
}

/**
 * add-orders, with the service's rules. One request = one transaction: the batch's stored orders,
 * visits and statuses are read with a few IN queries, then written with multi-row upserts.
 * The rules, in the order they apply to each order:
 * 1. `date_create` in none of the accepted forms → skipped_by_invalid_format, its id in `comment`;
 * 2. a custom field over 1000 symbols → dropped, counted in skipped_fields_by_invalid_format
 *    (the order goes on with its other fields);
 * 3. a `status` id the project does not know → skipped_by_status;
 * 4. a `tracker` visit the project does not know → skipped_by_waiting_visit_info; the order is held
 *    and written when that visit appears (VisitsService.addVisits → releaseWaitingOrders);
 * 5. an order identical to the stored one → skipped_because_not_changed;
 * 6. otherwise it is written (upsert by id; `price` becomes `revenue`) and counted in `saved`.
 * `processed` counts the orders of the request, `uploaded` those not skipped.
 */
@Injectable()
export class AddOrdersService {
  /** Projects that may hold waiting orders (unknown until checked once). */
  private readonly mayHaveWaiting = new Map<number, boolean>();

  constructor(
    private readonly lock: SandboxWriteLock,
    private readonly sql: SandboxPreparedSql,
    private readonly statuses: OrderStatusesService,
  ) {}

  /** Checks the structure first (400 naming the field), then applies the rules in one transaction. */
  addOrders(projectId: number, items: unknown[]): Promise<AddOrdersResult> {
    const inputs = items.map((item, index) => readOrderInput(item, index));
    return this.lock.run(() => this.sql.transaction(() => this.applyBatch(projectId, inputs, items)));
  }

  /** Writes the orders that waited for these visits (called once the visits are stored). */
  releaseWaitingOrders(projectId: number, visitIds: string[]): Promise<AddOrdersResult | null> {
    if (visitIds.length === 0) return Promise.resolve(null);
    return this.lock.run(() => this.sql.transaction(async () => {
      const rows = await this.sql.selectIn<{ payload: string }>(
        'SELECT payload FROM sb_pending_order WHERE project_id = ? AND tracker', [projectId], visitIds);
      if (rows.length === 0) return null;
      const items = rows.map((row) => JSON.parse(row.payload) as unknown);
      const inputs = items.map((item, index) => readOrderInput(item, index));
      return this.applyBatch(projectId, inputs, rows.map((row) => row.payload));
    }));
  }

  /** `payloads`: the orders as uploaded (text or parsed), kept for the ones held for their visit. */
  private async applyBatch(projectId: number, inputs: OrderInput[], payloads: unknown[]):
  Promise<AddOrdersResult> {
    const state = await this.loadBatchState(projectId, inputs);
    const result = emptyAddOrdersResult(inputs.length);
    const writes: BatchWrites = { orders: new Map(), held: new Map(), released: new Set(), invalidIds: [] };
    // While SQLite writes one chunk on its thread, the rules run on the next one: the two overlap.
    // One write in flight at a time keeps a later version of an order after an earlier one.
    let writing: Promise<void> = Promise.resolve();
    for (let start = 0; start < inputs.length; start += WRITE_CHUNK) {
      const chunk: OrderRecord[] = [];
      for (let index = start; index < Math.min(start + WRITE_CHUNK, inputs.length); index += 1) {
        const written = this.applyRules(projectId, inputs[index], payloads[index], state, writes, result);
        if (written) chunk.push(written);
      }
      await writing;
      writing = this.sql.bulkUpsert('sb_order', ORDER_COLUMNS, chunk.map(recordToRow), ['project_id', 'id'], UPDATE_COLUMNS);
    }
    await writing;
    await this.persistWaitingRoom(projectId, writes);
    return finishAddOrdersResult(result, writes.invalidIds);
  }

  /** Applies the rules to one order; returns it when it must be written. */
  private applyRules(projectId: number, input: OrderInput, payload: unknown, state: BatchState,
    writes: BatchWrites, result: AddOrdersResult): OrderRecord | null {
    if (input.dateInvalid) {
      result.skipped_by_invalid_format += 1;
      writes.invalidIds.push(input.id);
      return null;
    }
    result.skipped_fields_by_invalid_format += input.droppedFields;
    const previous = writes.orders.get(input.id) ?? state.stored.get(input.id);
    const merged = mergeOrder(previous, input, { projectId, now: state.now, statusTypes: state.statusTypes });
    if (!state.statusTypes.has(merged.statusId)) {
      result.skipped_by_status += 1;
      return null;
    }
    if (merged.tracker !== null && !state.knownVisits.has(merged.tracker)) {
      result.skipped_by_waiting_visit_info += 1;
      writes.held.set(input.id, { tracker: merged.tracker, payload });
      writes.released.delete(input.id);
      return null;
    }
    writes.held.delete(input.id);
    writes.released.add(input.id);
    if (previous && previous.hash === merged.hash) {
      result.skipped_because_not_changed += 1;
      return null;
    }
    writes.orders.set(input.id, merged);
    result.saved += 1;
    return merged;
  }

  private async loadBatchState(projectId: number, inputs: OrderInput[]): Promise<BatchState> {
    const stored = await this.loadStoredOrders(projectId, inputs);
    const trackers = new Set<string>();
    for (const input of inputs) if (input.tracker) trackers.add(input.tracker);
    for (const order of stored.values()) if (order.tracker) trackers.add(order.tracker);
    const visitRows = await this.sql.selectIn<{ id: string }>('SELECT id FROM sb_visit WHERE project_id = ? AND id',
      [projectId], [...trackers]);
    return {
      statusTypes: await this.statuses.types(projectId),
      knownVisits: new Set(visitRows.map((row) => row.id)),
      stored,
      now: serviceTimestamp(),
    };
  }

  /**
   * The batch's stored orders. JSON columns are the bulk of a row and are only needed to merge a
   * partial update (an order sent without fields, products or history), so they are read only then.
   */
  private async loadStoredOrders(projectId: number, inputs: OrderInput[]): Promise<Map<string, OrderRecord>> {
    const ids = [...new Set(inputs.map((input) => input.id))];
    const rows = await this.sql.selectIn<OrderRow>(`SELECT ${SCALAR_COLUMNS} FROM sb_order WHERE project_id = ? AND id`, [projectId], ids);
    const stored = new Map(rows.map((row) => [row.id, rowToRecord(row)]));
    const partial = inputs.filter((input) => stored.has(input.id)
      && (input.fields === undefined || input.products === undefined || input.history === undefined));
    if (partial.length > 0) {
      const jsonRows = await this.sql.selectIn<OrderRow>('SELECT id, fields, products, history FROM sb_order WHERE project_id = ? AND id',
        [projectId], [...new Set(partial.map((input) => input.id))]);
      for (const row of jsonRows) {
        Object.assign(stored.get(row.id) as OrderRecord, { fieldsJson: row.fields, productsJson: row.products, historyJson: row.history });
      }
    }
    return stored;
  }

  /** Saves a round trip per batch in the common case of a project with no waiting orders. */
  private async hasWaitingOrders(projectId: number): Promise<boolean> {
    const known = this.mayHaveWaiting.get(projectId);
    if (known !== undefined) return known;
    const rows = await this.sql.all('SELECT 1 FROM sb_pending_order WHERE project_id = ? LIMIT 1', [projectId]);
    this.mayHaveWaiting.set(projectId, rows.length > 0);
    return rows.length > 0;
  }

  /** Orders held for their visit are kept; orders that no longer wait leave the waiting room. */
  private async persistWaitingRoom(projectId: number, writes: BatchWrites): Promise<void> {
    await this.sql.bulkUpsert('sb_pending_order', ['project_id', 'id', 'tracker', 'payload'],
      [...writes.held.entries()].map(([id, held]) => [projectId, id, held.tracker,
        typeof held.payload === 'string' ? held.payload : JSON.stringify(held.payload)]),
      ['project_id', 'id'], ['tracker', 'payload']);
    if (writes.held.size > 0) this.mayHaveWaiting.set(projectId, true);
    if (writes.released.size > 0 && await this.hasWaitingOrders(projectId)) {
      await this.sql.run('DELETE FROM sb_pending_order WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))',
        [projectId, JSON.stringify([...writes.released])]);
    }
  }
}


