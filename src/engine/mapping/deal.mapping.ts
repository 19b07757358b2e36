import type { Deal, Product, StatusChange } from '../../connectors/canonical';
import { formatTrackerDate } from '../../tracker/tracker-date';
import type { AddOrder, AddOrderCategory, AddOrderHistory, AddOrderProduct } from '../../tracker/types/orders.types';
import { finiteNumber, instant, moneyText } from './mapping-error';

/** Deal → add-orders item. Dates carry '+0000' (the service reads bare dates as UTC+03:00). */
export function dealToAddOrder(deal: Deal): AddOrder {
  const order: AddOrder = { id: deal.id, date_create: instant(deal.created_at, 'created_at', formatTrackerDate) };
  if (deal.title != null) order.name = deal.title;
  if (deal.status != null) order.status = deal.status;
  order.tracker = deal.visit_id ? String(deal.visit_id) : null;
  const price = moneyText(deal.price, 'price');
  if (price !== null) order.price = price;
  const cost = moneyText(deal.cost, 'cost');
  if (cost !== null) order.cost = cost;
  if (deal.client_id) order.client_id = deal.client_id;
  const fields = dealFields(deal);
  if (fields) order.fields = fields;
  if (deal.products?.length) order.products = deal.products.map((p, i) => product(p, `products[${i}]`));
  if (deal.history?.length) order.history = deal.history.map((h, i) => historyItem(h, `history[${i}]`));
  return order;
}

/** Custom fields, plus the manager's CRM id (the order payload has no manager field of its own). */
function dealFields(deal: Deal): Record<string, string | null> | undefined {
  const fields: Record<string, string | null> = { ...(deal.custom_fields ?? {}) };
  if (deal.manager_id && fields.manager_id === undefined) fields.manager_id = deal.manager_id;
  return Object.keys(fields).length ? fields : undefined;
}

function product(p: Product, at: string): AddOrderProduct {
  const out: AddOrderProduct = { id: p.id, name: p.name, quantity: p.quantity };
  const price = finiteNumber(p.price, `${at}.price`);
  if (price !== undefined) out.price = price;
  const cost = finiteNumber(p.cost, `${at}.cost`);
  if (cost !== undefined) out.cost = cost;
  if (p.brand) out.brand = p.brand;
  if (p.variant) out.variant = p.variant;
  if (p.categories?.length) out.category = category(p.categories);
  return out;
}

/** Every level is mapped; the payload check rejects a sixth one rather than dropping it silently. */
function category(levels: string[]): AddOrderCategory {
  const out: Record<string, string> = {};
  levels.forEach((name, i) => (out[`level${i + 1}`] = name));
  return out as AddOrderCategory;
}

function historyItem(h: StatusChange, at: string): AddOrderHistory {
  const out: AddOrderHistory = { date: instant(h.date, `${at}.date`, formatTrackerDate), status: h.status };
  if (h.price !== undefined) out.price = h.price === null ? null : finiteNumber(h.price, `${at}.price`);
  if (h.cost !== undefined) out.cost = h.cost === null ? null : finiteNumber(h.cost, `${at}.cost`);
  return out;
}
