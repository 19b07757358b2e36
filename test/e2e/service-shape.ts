import type { Client, Deal, Manager, StatusChange } from '../../src/connectors/canonical';
import { DEFAULT_ORDER_STATUSES } from '../../src/sandbox/projects/default-statuses';
import type { Client as ServiceClient } from '../../src/tracker/types/clients.types';
import type { Manager as ServiceManager } from '../../src/tracker/types/managers.types';
import type { Order, OrderDetail } from '../../src/tracker/types/orders.types';

/**
 * What a canonical record must look like once the service holds it, written out from the specification
 * (not from the engine's mapping code): price → revenue (the service keeps whole numbers), the status id
 * with its group and name, the visit number → `tracker` / `visit_id`, times as UTC 'YYYY-MM-DDTHH:MM:SS+0000',
 * custom fields by name (plus the CRM manager id, which add-orders has no field for), phones and e-mails
 * joined by ','. Each `...View` picks the same keys out of what the service answers, so a test compares
 * the two with toEqual and a difference names the record and the field.
 */

const STATUS = new Map(DEFAULT_ORDER_STATUSES.map((s) => [s.id, s]));

/** The service answers instants as UTC 'YYYY-MM-DDTHH:MM:SS+0000'. */
export function serviceTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+0000`;
}

/** How the instants we send read in add-orders history: 'YYYY-MM-DD HH:MM:SS+0000'. */
export function sentTime(date: Date): string {
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)}+0000`;
}

/** The service keeps money as whole numbers. */
export function serviceMoney(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(value);
}

function trackerNumber(visit: string | null | undefined): number | null {
  return visit && /^\d+$/.test(visit) ? Number(visit) : null;
}

// ---- orders (the order list) ----------------------------------------------------------

export function orderListView(order: Order) {
  return {
    id: order.id,
    creation_date: order.creation_date,
    revenue: order.revenue,
    cost: order.cost,
    status: order.status,
    tracker: order.tracker ?? null,
    visit_id: order.visit_id ?? null,
    visit: order.visit ? String(order.visit.id) : null,
    client_id: order.client_id,
    custom_fields: order.custom_fields,
  };
}

export function expectedOrderListView(deal: Deal): ReturnType<typeof orderListView> {
  const statusId = deal.status ?? '0';
  const status = STATUS.get(statusId);
  const name = status?.name ?? statusId;
  const fields: Record<string, unknown> = { ...(deal.custom_fields ?? {}) };
  if (deal.manager_id && fields.manager_id === undefined) fields.manager_id = deal.manager_id;
  return {
    id: deal.id,
    creation_date: serviceTime(deal.created_at),
    revenue: serviceMoney(deal.price),
    cost: serviceMoney(deal.cost),
    status: { id: statusId, type: (status?.type ?? 'unused') as Order['status']['type'], name },
    tracker: trackerNumber(deal.visit_id),
    visit_id: deal.visit_id ?? null,
    visit: deal.visit_id ?? null,
    client_id: deal.client_id ?? null,
    custom_fields: { ...fields, tracker: trackerNumber(deal.visit_id), status_name: name } as Order['custom_fields'],
  };
}

// ---- orders (order info: products, history, the linked client) --------------------------

export function orderDetailView(detail: OrderDetail) {
  const order = detail.order as OrderDetail['order'] & { history?: unknown };
  return {
    title: order.title,
    status_original: order.status_original,
    price: order.price,
    cost: order.cost,
    visit_id: order.visit_id,
    client_external_id: order.client_external_id,
    client_name: order.client_name,
    client_phones: order.client_phones,
    client_emails: order.client_emails,
    history: order.history ?? [],
    products: detail.products,
  };
}

export function expectedOrderDetailView(deal: Deal, client: Client | undefined): ReturnType<typeof orderDetailView> {
  return {
    title: deal.title ?? `Order ${deal.id}`,
    status_original: deal.status ?? '0',
    price: serviceMoney(deal.price) ?? 0,
    cost: serviceMoney(deal.cost) ?? 0,
    visit_id: deal.visit_id ?? '',
    client_external_id: deal.client_id ?? '',
    client_name: client?.name ?? '',
    client_phones: client?.phones ?? [],
    client_emails: client?.emails ?? [],
    history: expectedHistory(deal).map((h) => ({
      date: sentTime(h.date), price: h.price ?? null, cost: h.cost ?? null, status: h.status,
    })),
    products: (deal.products ?? []).map((p) => ({
      id: p.id, name: p.name, price: p.price ?? 0, cost: p.cost ?? 0, brand: p.brand ?? '', variant: p.variant ?? null,
      categories: (p.categories ?? []).map((value, i) => ({ level: String(i + 1), value })),
      quantity: p.quantity, fields: [],
    })) as OrderDetail['products'],
  };
}

/**
 * The history an order must carry: the deal's own, and, for a closed deal (`closed_at`) whose history has no entry
 * with its status, its move into that status at its close time, placed oldest first (the payment, or the
 * cancellation, is dated then: not on the day of the sync).
 */
export function expectedHistory(deal: Deal): StatusChange[] {
  const history = deal.history ?? [];
  if (!deal.closed_at || !deal.status || history.some((h) => h.status === deal.status)) return history;
  const closing: StatusChange = { date: deal.closed_at, status: deal.status, price: deal.price };
  const later = history.findIndex((h) => h.date.getTime() > deal.closed_at!.getTime());
  return later < 0 ? [...history, closing] : [...history.slice(0, later), closing, ...history.slice(later)];
}

// ---- clients and managers -------------------------------------------------------------

export function clientView(client: ServiceClient) {
  return {
    external_id: client.external_id, name: client.name, phone: client.phone, email: client.email,
    company: client.company, birth_date: client.birth_date,
  };
}

export function expectedClientView(client: Client): ReturnType<typeof clientView> {
  return {
    external_id: client.id,
    name: client.name,
    phone: (client.phones ?? []).join(','),
    email: (client.emails ?? []).join(','),
    company: client.company ?? '',
    birth_date: client.birth_date ?? null,
  };
}

export function managerView(manager: ServiceManager) {
  return { id: String(manager.id), name: manager.name, phone: manager.phone, email: manager.email };
}

export function expectedManagerView(manager: Manager): ReturnType<typeof managerView> {
  return { id: manager.id, name: manager.name, phone: manager.phone ?? '', email: manager.email ?? '' };
}

/** Sorted by id, so two lists compare record by record. */
export function sortedById<T extends { id?: unknown; external_id?: unknown }>(items: T[]): T[] {
  const key = (item: T) => String(item.id ?? item.external_id);
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
