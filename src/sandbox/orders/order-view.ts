import type { Order, OrderDetailProduct } from '../../tracker/types/orders.types';
import type { StatusType } from '../storage/order-status.entity';
import { VisitRecord, visitSummary } from '../visits/visit-record';
import type { StoredOrder } from './stored-order';

export interface StatusInfo {
  name: string;
  type: StatusType;
}

/** Where the sandbox pretends the CRM keeps the order. */
export function orderExternalUrl(order: { id: string }): string {
  return `https://crm.sandbox.invalid/orders/${encodeURIComponent(order.id)}`;
}

function trackerNumber(order: StoredOrder): number | null {
  return order.tracker !== null && /^\d+$/.test(order.tracker) ? Number(order.tracker) : null;
}

/** An item of the order list. */
export function orderListItem(order: StoredOrder, status: StatusInfo | undefined, visit: VisitRecord | null | undefined,
  extendVisit: boolean): Order {
  const statusName = status?.name ?? order.statusId;
  return {
    id: order.id,
    url: orderExternalUrl(order),
    source_type: 'api',
    creation_date: order.creationDate,
    update_date: order.updateDate,
    revenue: order.revenue,
    cost: order.cost,
    tracker: trackerNumber(order),
    visit_id: order.tracker,
    client_id: order.clientId,
    page: visit?.landing_page ?? null,
    custom_fields: { ...order.fields, tracker: trackerNumber(order), status_name: statusName },
    status: { id: order.statusId, type: status?.type ?? 'unused', name: statusName },
    visit: extendVisit ? visit ?? null : null,
  };
}

export interface ClientFacts {
  id: string;
  externalId: string;
  name: string;
  phones: string[];
  emails: string[];
}

/** The `order` object of order info. */
export function orderDetail(order: StoredOrder, status: StatusInfo | undefined, chain: VisitRecord[],
  client: ClientFacts | null, firsts: { isFirst: boolean; isFirstSale: boolean }): Record<string, unknown> {
  const orderVisit = chain.find((visit) => visit.id === order.tracker);
  const statusName = status?.name ?? order.statusId;
  return {
    id: order.id,
    title: order.name ?? `Order ${order.id}`,
    url: orderExternalUrl(order),
    source: { type: 'proxyform', icon_url: 'https://icons.sandbox.invalid/source/api.png', title: 'API' },
    creation_date: order.creationDate,
    update_date: order.updateDate,
    paid_date: order.paidDate,
    status: status?.type ?? 'unused',
    status_name: statusName,
    status_original: order.statusId,
    price: order.revenue ?? 0,
    cost: order.cost ?? 0,
    visit_id: order.tracker ?? '',
    visit: orderVisit ? visitSummary(orderVisit, order.tracker) : null,
    fields_data: { ...order.fields, status_name: statusName, tracker: order.tracker ?? '' },
    is_multichannel: new Set(chain.map((visit) => visit.source.system_name)).size > 1 ? 1 : 0,
    visits_count: chain.length,
    client_phones: client?.phones ?? [],
    client_emails: client?.emails ?? [],
    client_name: client?.name ?? '',
    client_id: client?.id ?? '',
    client_external_id: client?.externalId ?? order.clientId ?? '',
    is_first: firsts.isFirst,
    is_first_sale: firsts.isFirstSale,
    history: order.history,
  };
}

/** A product of order info; `category.level1..5` becomes `categories: [{level, value}]`. */
export function productView(product: StoredOrder['products'][number]): OrderDetailProduct {
  return {
    id: product.id,
    name: product.name,
    price: product.price ?? 0,
    cost: product.cost ?? 0,
    brand: product.brand ?? '',
    variant: product.variant,
    categories: Object.entries(product.category)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([level, value]) => ({ level: level.replace('level', ''), value })),
    quantity: product.quantity,
    fields: [],
  };
}
