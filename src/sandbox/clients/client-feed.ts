import type { StoredOrder } from '../orders/stored-order';
import type { StatusInfo } from '../orders/order-view';
import { parseDateCreate } from '../storage/order-date';
import type { VisitRecord } from '../visits/visit-record';

export type FeedItem = Record<string, unknown> & { type: string };

/** Sort key of an item: its date in the service's UTC form. */
function itemDate(item: FeedItem): string {
  return String(item.creationDate ?? item.date ?? '');
}

export function sortFeed(items: FeedItem[]): FeedItem[] {
  return items.sort((a, b) => itemDate(a).localeCompare(itemDate(b)));
}

export function visitItem(visit: VisitRecord): FeedItem {
  return {
    type: 'visit', visitId: visit.id, creationDate: visit.date, sourceId: visit.source.display_name_by_level.join(' / '),
    device: visit.device, sourceTitle: visit.source.display_name, sourceIcon: visit.source.icon_url,
  };
}

export function orderItems(order: StoredOrder, statuses: Map<string, StatusInfo>, currency: string): FeedItem[] {
  const status = statuses.get(order.statusId);
  const items: FeedItem[] = [{
    type: 'order', id: order.id, name: order.name ?? `Order ${order.id}`, status: order.statusId,
    statusType: status?.type ?? 'unused', statusTitle: status?.name ?? order.statusId,
    revenue: order.revenue ?? 0, formattedRevenue: money(order.revenue, currency), cost: order.cost ?? 0,
    formattedCost: money(order.cost, currency), fields: order.fields, creationDate: order.creationDate,
    updateDate: order.updateDate,
  }];
  for (const entry of order.history) items.push(...historyItems(order, entry, statuses, currency));
  return items;
}

/** Each history entry becomes the change items it carries (status, cost, price). */
function historyItems(order: StoredOrder, entry: StoredOrder['history'][number], statuses: Map<string, StatusInfo>,
  currency: string): FeedItem[] {
  const date = (entry.date && parseDateCreate(entry.date)) || order.creationDate;
  const base = { order_id: order.id, order_title: order.name ?? `Order ${order.id}`, date };
  const items: FeedItem[] = [];
  if (entry.status) {
    const status = statuses.get(entry.status);
    items.push({ type: 'orderStatusChange', ...base, status: entry.status, statusType: status?.type ?? 'unused',
      statusTitle: status?.name ?? entry.status });
  }
  if (entry.cost !== null) items.push({ type: 'orderCostChange', ...base, cost: Math.round(entry.cost), formattedCost: money(entry.cost, currency) });
  if (entry.price !== null) items.push({ type: 'orderPriceChange', ...base, price: Math.round(entry.price), formattedPrice: money(entry.price, currency) });
  return items;
}

/** A trigger of a custom event (documents of kind 'event_log', written by the events section). */
export function eventItem(entry: Record<string, unknown>): FeedItem {
  return {
    type: 'event', metaId: String(entry.meta_id ?? entry.event_id ?? entry.id ?? ''),
    creationDate: String(entry.event_date ?? entry.date ?? ''), name: String(entry.display_name ?? entry.name ?? ''),
  };
}

/** A call (documents of kind 'speech_call', written by the speech section). */
export function callItem(call: Record<string, unknown>): FeedItem {
  return {
    type: 'call', callee: String(call.callee ?? ''), caller: String(call.caller ?? ''),
    duration: String(call.duration ?? '0'), status: String(call.call_status ?? call.status_name ?? 'ANSWER'),
    date: String(call.date ?? ''), file_url: (call.file_url ?? call.link ?? null) as string | null,
  };
}

function money(value: number | null, currency: string): string {
  return `${Math.round(value ?? 0)} ${currency}`;
}
