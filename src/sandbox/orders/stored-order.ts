import { hash } from 'node:crypto';
import type { OrderHistoryEntry, OrderProduct } from './order-input';

/** Scalar columns of sb_order, shared by the read side and the write side. */
interface OrderScalars {
  projectId: number;
  id: string;
  name: string | null;
  creationDate: string;
  updateDate: string | null;
  paidDate: string | null;
  statusId: string;
  tracker: string | null;
  clientId: string | null;
  revenue: number | null;
  cost: number | null;
  hash: string;
}

/** An order as read back for the list, info and feed (JSON columns parsed); read with `rowid AS seq`. */
export interface StoredOrder extends OrderScalars {
  /** Arrival order (rowid). */
  seq: number;
  fields: Record<string, string | null>;
  products: OrderProduct[];
  history: OrderHistoryEntry[];
}

/**
 * The write side keeps the JSON columns as text: ingest compares and writes them without parsing
 * stored orders (parsing them back cost more than the rest of add-orders together).
 */
export interface OrderRecord extends OrderScalars {
  fieldsJson: string;
  productsJson: string;
  historyJson: string;
}

export const ORDER_COLUMNS = [
  'project_id', 'id', 'name', 'creation_date', 'update_date', 'paid_date', 'status_id', 'tracker',
  'client_id', 'revenue', 'cost', 'fields', 'products', 'history', 'hash',
];

export interface OrderRow {
  project_id: number; id: string; seq?: number; name: string | null; creation_date: string;
  update_date: string | null; paid_date: string | null; status_id: string; tracker: string | null;
  client_id: string | null; revenue: number | null; cost: number | null; fields: string; products: string;
  history: string; hash: string;
}

export function recordToRow(order: OrderRecord): unknown[] {
  return [
    order.projectId, order.id, order.name, order.creationDate, order.updateDate, order.paidDate,
    order.statusId, order.tracker, order.clientId, order.revenue, order.cost, order.fieldsJson,
    order.productsJson, order.historyJson, order.hash,
  ];
}

export function rowToRecord(row: OrderRow): OrderRecord {
  return {
    projectId: row.project_id, id: row.id, name: row.name, creationDate: row.creation_date,
    updateDate: row.update_date, paidDate: row.paid_date, statusId: row.status_id, tracker: row.tracker,
    clientId: row.client_id, revenue: row.revenue, cost: row.cost, fieldsJson: row.fields,
    productsJson: row.products, historyJson: row.history, hash: row.hash,
  };
}

export function rowToOrder(row: OrderRow): StoredOrder {
  const { fieldsJson, productsJson, historyJson, ...scalars } = rowToRecord(row);
  return { ...scalars, seq: row.seq ?? 0, fields: JSON.parse(fieldsJson), products: JSON.parse(productsJson), history: JSON.parse(historyJson) };
}

/** Fingerprint of what the client sent (not of the service's own dates): equal hash = not changed. */
export function orderHash(order: Pick<OrderRecord, 'id' | 'name' | 'creationDate' | 'statusId' | 'tracker' | 'clientId'
| 'revenue' | 'cost' | 'fieldsJson' | 'productsJson' | 'historyJson'>): string {
  const scalars = [order.id, order.name, order.creationDate, order.statusId, order.tracker, order.clientId, order.revenue, order.cost];
  // One string, one native call: many small update() calls cost more than the hashing itself.
  return hash('sha1', `${JSON.stringify(scalars)}\u0000${order.fieldsJson}\u0000${order.productsJson}\u0000${order.historyJson}`, 'base64');
}
