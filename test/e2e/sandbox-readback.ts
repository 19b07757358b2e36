import type { TrackerClient } from '../../src/tracker/tracker-client';
import type { Client as ServiceClient } from '../../src/tracker/types/clients.types';
import type { Manager as ServiceManager } from '../../src/tracker/types/managers.types';
import type { Order, OrderDetail } from '../../src/tracker/types/orders.types';

/** What the service holds after a run, read back over its API with the typed client. */
export interface ServiceContents {
  orders: Order[];
  clients: ServiceClient[];
  managers: ServiceManager[];
}

const PAGE = 1000;

export async function readServiceContents(tracker: TrackerClient): Promise<ServiceContents> {
  return {
    orders: await allOrders(tracker),
    clients: await allClients(tracker),
    managers: (await tracker.managers.list()).data,
  };
}

/** Every order, with its visit (`extend: ['visit']`), page by page. */
export async function allOrders(tracker: TrackerClient): Promise<Order[]> {
  const orders: Order[] = [];
  for (;;) {
    const page = await tracker.orders.list({ limit: PAGE, offset: orders.length, extend: ['visit'] });
    orders.push(...page.data);
    if (page.data.length === 0 || orders.length >= page.total) return orders;
  }
}

export async function allClients(tracker: TrackerClient): Promise<ServiceClient[]> {
  const clients: ServiceClient[] = [];
  for (;;) {
    const page = await tracker.clients.list({ limit: PAGE, offset: clients.length });
    clients.push(...page.clients);
    if (page.clients.length === 0 || clients.length >= page.total) return clients;
  }
}

/** order info of each id (products, history, the client as the service linked it). */
export async function orderDetails(tracker: TrackerClient, ids: string[]): Promise<Map<string, OrderDetail>> {
  const details = new Map<string, OrderDetail>();
  for (const id of ids) details.set(id, await tracker.orders.info(id));
  return details;
}

export function byId<T>(items: T[], id: (item: T) => unknown): Map<string, T> {
  return new Map(items.map((item) => [String(id(item)), item]));
}
