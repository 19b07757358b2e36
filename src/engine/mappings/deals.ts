import type { Deal, Product, StatusChange } from '../../connectors/canonical';
import { checkAddOrder } from '../../tracker/payload-checks';
import { formatTrackerDate } from '../../tracker/tracker-date';
import type { AddOrder, AddOrderCategory, AddOrderHistory, AddOrderProduct } from '../../tracker/types/orders.types';
import { finiteNumber, instant, moneyText } from './mapping-error';
import type { StreamMapping } from './stream-mapping';

/**
 * Bump when a change here (mapping or checks) changes what is sent: every deal is sent again once.
 * Not bumped for the closing entry (`closingItem`): it changes only the payload of a deal whose connector gives
 * `closed_at` (the generic CRM, whose deals are fingerprinted by payload), so such a deal is sent again once when it
 * is next read; a bump would re-send every deal of every connection (every spreadsheet row) for nothing. Nor for a
 * null price or cost now sent as null (it was left out): a CRM deal without an amount is sent again once when next
 * read, a spreadsheet row when it changes (`sync --full` re-sends a sheet's price cleared before this release).
 */
export const DEAL_MAPPING_VERSION = 1;

export const dealsMapping: StreamMapping<Deal, AddOrder> = {
  stream: 'deals',
  mappingVersion: DEAL_MAPPING_VERSION,
  toPayload: dealToAddOrder,
  check: (order) => checkAddOrder(order),
  withoutVisit: (order) => !order.tracker,
};

const LEVEL_KEYS = ['level1', 'level2', 'level3', 'level4', 'level5'];
/** Deal → add-orders item. Dates carry '+0000' (the service reads bare dates as UTC+03:00). */
export function dealToAddOrder(deal: Deal): AddOrder {
  const order: AddOrder = { id: deal.id, date_create: instant(deal.created_at, 'created_at', formatTrackerDate) };
  // name, status and client_id are strings in add-orders (not "null or string"): an empty one is left out and the
  // service keeps what it has (an empty status id would be skipped_by_status, the whole update with it)
  if (deal.title != null) order.name = deal.title;
  if (deal.status != null) order.status = deal.status;
  order.tracker = deal.visit_id ? String(deal.visit_id) : null;
  // price and cost are "null or string": null (the source's value is empty) is sent, so a cleared amount clears the
  // order's; undefined (the source has no such field) is left out, and the service keeps its value
  if (deal.price !== undefined) order.price = moneyText(deal.price, 'price');
  if (deal.cost !== undefined) order.cost = moneyText(deal.cost, 'cost');
  if (deal.client_id) order.client_id = deal.client_id;
  const fields = dealFields(deal);
  if (fields) order.fields = fields;
  if (deal.products?.length) order.products = deal.products.map(product);
  const history = deal.history ?? [];
  const items = history.map((h, i) => historyItem(h, `history[${i}]`));
  const closing = closingItem(deal, history);
  if (closing) items.splice(closingPosition(history, deal.closed_at!), 0, closing);
  if (items.length) order.history = items;
  return order;
}

/**
 * The deal's move into its final status, dated `closed_at`, when its history has no entry with the deal's status:
 * the service dates a payment (a cancellation) by the history entry that moved the order into that status, else by
 * the moment it first receives the status, which for a deal without such an entry is the sync (a first sync of an
 * account would put years of revenue on its day). A connector gives `closed_at` only for a deal in a final status
 * (won or lost), so an open deal never gets an entry it did not have; an entry the history has is never moved.
 * Whether the status is paid or canceled is the project's dictionary's, which a sync does not read (and a mapping is
 * pure, run on a worker thread too): the deal's own history decides, an entry with its status being its move.
 */
function closingItem(deal: Deal, history: StatusChange[]): AddOrderHistory | null {
  if (!deal.closed_at || deal.status == null || deal.status === '') return null;
  if (history.some((h) => h.status === deal.status)) return null;
  const out: AddOrderHistory = { date: instant(deal.closed_at, 'closed_at', formatTrackerDate), status: deal.status };
  if (deal.price !== undefined) out.price = deal.price === null ? null : finiteNumber(deal.price, 'price');
  return out;
}

/** After the entries of the closing time or earlier: the history stays oldest first, and no entry moves. */
function closingPosition(history: StatusChange[], closedAt: Date): number {
  let at = history.length;
  while (at > 0 && history[at - 1].date.getTime() > closedAt.getTime()) at--;
  return at;
}

/**
 * Custom fields, plus the manager's CRM id (the order payload has no manager field of its own). Runs per deal:
 * no copy and no key list when there are no custom fields.
 */
function dealFields(deal: Deal): Record<string, string | null> | undefined {
  const custom = deal.custom_fields;
  const fields: Record<string, string | null> | undefined = custom && hasOwnKeys(custom) ? { ...custom } : undefined;
  if (!deal.manager_id || fields?.manager_id !== undefined) return fields;
  if (fields === undefined) return { manager_id: deal.manager_id };
  fields.manager_id = deal.manager_id;
  return fields;
}

function hasOwnKeys(object: object): boolean {
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
  return false;
}

/** Runs for every product of every deal: a field's path is only spelled out when it is wrong. */
function product(p: Product, index: number): AddOrderProduct {
  const out: AddOrderProduct = { id: p.id, name: p.name, quantity: p.quantity };
  const price = isFiniteOrAbsent(p.price) ? p.price : finiteNumber(p.price, `products[${index}].price`);
  if (price !== undefined && price !== null) out.price = price;
  const cost = isFiniteOrAbsent(p.cost) ? p.cost : finiteNumber(p.cost, `products[${index}].cost`);
  if (cost !== undefined && cost !== null) out.cost = cost;
  if (p.brand) out.brand = p.brand;
  if (p.variant) out.variant = p.variant;
  if (p.categories?.length) out.category = category(p.categories);
  return out;
}

function isFiniteOrAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'number' && Number.isFinite(value));
}

/** Every level is mapped; the payload check rejects a sixth one rather than dropping it silently. */
function category(levels: string[]): AddOrderCategory {
  const out: Record<string, string> = {};
  for (let i = 0; i < levels.length; i++) out[i < LEVEL_KEYS.length ? LEVEL_KEYS[i] : `level${i + 1}`] = levels[i];
  return out as AddOrderCategory;
}

function historyItem(h: StatusChange, at: string): AddOrderHistory {
  const out: AddOrderHistory = { date: instant(h.date, `${at}.date`, formatTrackerDate), status: h.status };
  if (h.price !== undefined) out.price = h.price === null ? null : finiteNumber(h.price, `${at}.price`);
  if (h.cost !== undefined) out.cost = h.cost === null ? null : finiteNumber(h.cost, `${at}.cost`);
  return out;
}
