import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import type { Client, Deal, Manager } from '../../src/connectors/canonical';
import type { RunSummary } from '../../src/engine/engine-types';
import { CrmServer, FixtureAnswer, FixtureRequest, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { E2eSync } from './e2e-harness';
import { orderDetails, readServiceContents, ServiceContents } from './sandbox-readback';
import {
  clientView, expectedClientView, expectedManagerView, expectedOrderDetailView, expectedOrderListView, managerView,
  orderDetailView, orderListView, sortedById,
} from './service-shape';

/**
 * A CRM outside the presets, set up as a newcomer would: the connection is the e-commerce example of
 * connectors/README.md, read from the README itself. The CRM is a loopback copy of a RetailCRM-like API:
 * the key as the `apiKey` query parameter, page-number paging with a page count, customers embedded in their
 * orders, local Moscow times without an offset, `success: false` errors with HTTP 200.
 */

const API_KEY = 'shop-key-5f3a';
const ORDER_COUNT = 45;
const PAGE_LIMITS = ['20', '50', '100'];

// ---- the CRM's data, as its API writes it ----------------------------------------------------

const users = [
  { id: 1, firstName: 'Ольга', lastName: 'Иванова', email: 'olga@shop.example' },
  { id: 2, firstName: 'Пётр', lastName: 'Сидоров', email: 'petr@shop.example' },
];
const customers = [
  { id: 31, firstName: 'Анна', lastName: 'Смирнова', phones: [{ number: '+7 916 000-00-01' }, { number: '8 (495) 123-45-67' }], email: 'Anna@Example.com' },
  { id: 32, firstName: 'Борис', phones: [{ number: '+7 916 000-00-02' }] },
  { id: 33, firstName: 'Вера', lastName: 'Кузнецова', phones: [], email: 'vera@example.com' },
  { id: 34, firstName: 'Глеб', lastName: 'Орлов', phones: [{ number: '+7 903 111-22-33' }], email: 'gleb@example.com' },
];
const statuses = ['new', 'complete', 'cancel-other', 'cancel-by-client', 'assembling'];

/** 'YYYY-MM-DD HH:mm:ss' in Moscow (UTC+3 all year) `hours` after 2025-03-01 10:00. */
function localTime(hours: number, minutes = 0): string {
  const utc = new Date(Date.UTC(2025, 2, 1, 7 + hours, minutes));
  return new Date(utc.getTime() + 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}
const fromMoscow = (local: string) => new Date(`${local.replace(' ', 'T')}+03:00`);

const orders = Array.from({ length: ORDER_COUNT }, (_, index) => {
  const n = index + 1;
  const items = [
    { id: n * 10, offer: { externalId: `sku-${n % 3}`, name: `Товар ${n % 3}` }, quantity: 1 + (n % 2), initialPrice: 1000 + n, purchasePrice: 600 },
  ];
  return {
    id: n,
    number: `A-${n}`,
    createdAt: localTime(n),
    updatedAt: localTime(n, 30),
    statusUpdatedAt: localTime(n, 20),
    status: statuses[n % statuses.length],
    managerId: users[n % 2].id,
    customer: customers[n % customers.length],
    items,
    totalSumm: items.reduce((sum, item) => sum + item.initialPrice * item.quantity, 0),
    customFields: n % 5 === 0 ? { delivery: 'courier' } : { tracker: String(1000000 + n), delivery: 'pickup' },
  };
});

// ---- the CRM's API ---------------------------------------------------------------------------

function fail(status: number, errorMsg: string): FixtureAnswer {
  return { status, body: { success: false, errorMsg } };
}

function page<T>(request: FixtureRequest, key: string, list: T[]): FixtureAnswer {
  const limit = request.query.get('limit') ?? '20';
  if (!PAGE_LIMITS.includes(limit)) return fail(400, `limit must be one of ${PAGE_LIMITS.join(', ')}`);
  const current = Number(request.query.get('page') ?? 1);
  const size = Number(limit);
  const totalPageCount = Math.max(1, Math.ceil(list.length / size));
  return {
    body: {
      success: true,
      [key]: list.slice((current - 1) * size, current * size),
      pagination: { limit: size, totalCount: list.length, currentPage: current, totalPageCount },
    },
  };
}

const LOCAL_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function handler(request: FixtureRequest): FixtureAnswer {
  if (request.query.get('apiKey') !== API_KEY) return { body: { success: false, errorMsg: 'Wrong "apiKey" value.' } };
  if (request.path === '/api/v5/users') return page(request, 'users', users);
  if (request.path === '/api/v5/orders') {
    const from = request.query.get('filter[updatedAtFrom]');
    const to = request.query.get('filter[updatedAtTo]');
    for (const value of [from, to]) if (value !== null && !LOCAL_TIME.test(value)) return fail(400, `"${value}" is not Y-m-d H:i:s`);
    const matching = orders.filter((o) => (from === null || o.updatedAt >= from) && (to === null || o.updatedAt <= to));
    return page(request, 'orders', matching);
  }
  return fail(404, `no route ${request.path}`);
}

// ---- what the service must hold, written from the CRM's data --------------------------------

const STATUS_IDS: Record<string, string> = { new: '0', complete: '1', 'cancel-other': '2', 'cancel-by-client': '2', assembling: '0' };

const expectedManagers: Manager[] = users.map((u) => ({ id: String(u.id), name: `${u.firstName} ${u.lastName}`, phone: null, email: u.email }));
const expectedClients: Client[] = customers.map((c) => ({
  id: String(c.id),
  name: [c.firstName, c.lastName].filter(Boolean).join(' '),
  phones: c.phones.map((p) => (p.number.startsWith('+') ? '+' : '') + p.number.replace(/\D/g, '')),
  emails: c.email ? [c.email.toLowerCase()] : [],
}));
const expectedDeals: Deal[] = orders.map((o) => ({
  id: String(o.id),
  title: o.number,
  created_at: fromMoscow(o.createdAt),
  updated_at: fromMoscow(o.updatedAt),
  status: STATUS_IDS[o.status],
  visit_id: o.customFields.tracker ?? null,
  price: o.totalSumm,
  cost: null,
  client_id: String(o.customer.id),
  manager_id: String(o.managerId),
  custom_fields: { delivery: o.customFields.delivery },
  products: o.items.map((i) => ({ id: i.offer.externalId, name: i.offer.name, quantity: i.quantity, price: i.initialPrice, cost: i.purchasePrice })),
  history: [{ date: fromMoscow(o.statusUpdatedAt), status: STATUS_IDS[o.status] }],
}));

/** The example connection of connectors/README.md, as a user copies it (the key from the environment). */
function readmeConnection(baseUrl: string): { id: string; connector: string; settings: Record<string, unknown> } {
  const readme = readFileSync(join(__dirname, '../../connectors/README.md'), 'utf8');
  const marker = readme.indexOf('<!-- example: e-commerce CRM');
  if (marker < 0) throw new Error('connectors/README.md lost its e-commerce example');
  const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(marker))![1];
  const config = parse(block.replace('${SHOP_API_KEY}', API_KEY)) as { connections: { id: string; connector: string; settings: Record<string, unknown> }[] };
  const [connection] = config.connections;
  return { ...connection, settings: { ...connection.settings, base_url: baseUrl } };
}

describe('e2e: an e-commerce CRM described from connectors/README.md → engine → sandbox', () => {
  let crm: CrmServer;
  let e2e: E2eSync;
  let first: RunSummary;
  let contents: ServiceContents;
  const orderPages = (requests: FixtureRequest[]) => requests.filter((r) => r.path === '/api/v5/orders');

  beforeAll(async () => {
    crm = await startCrmServer(handler);
    const connection = readmeConnection(crm.url);
    expect(connection.connector).toBe('generic-crm');
    e2e = await E2eSync.start({ connectionId: connection.id, connector: connection.connector, settings: connection.settings });
    await e2e.registerVisits(expectedDeals.map((d) => d.visit_id).filter((v): v is string => !!v));
    first = await e2e.run();
    contents = await readServiceContents(e2e.tracker);
  });
  afterAll(async () => {
    await e2e?.stop();
    await crm?.close();
  });

  it('the first run succeeds and sends every manager, client and deal', () => {
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams.managers).toMatchObject({ sent: 2, rejected: 0 });
    expect(first.streams.clients).toMatchObject({ sent: customers.length, rejected: 0 });
    expect(first.streams.deals).toMatchObject({ read: ORDER_COUNT, sent: ORDER_COUNT, rejected: 0, sent_without_visit: 9 });
    expect(first.counters).toMatchObject({ processed: ORDER_COUNT, saved: ORDER_COUNT, skipped_by_status: 0 });
  });

  it('sends the key as the apiKey parameter of every request', () => {
    expect(crm.requests.every((r) => r.query.get('apiKey') === API_KEY)).toBe(true);
  });

  it('takes the clients from the customers inside the orders, fetching each order page once', () => {
    expect(orderPages(crm.requests).map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(sortedById(contents.clients.map(clientView))).toEqual(sortedById(expectedClients.map(expectedClientView)));
    expect(e2e.log()).toMatch(/stream deals: read 45 records in 3 pages \(kept from an earlier stream of this run, not fetched again\)/);
    expect(existsSync(join(e2e.dataDir, 'work', 'shop', 'deals-pages.jsonl'))).toBe(false);
  });

  it('leaves the cursor filter out of the first run, and bounds it by the run\'s signpost in local time', () => {
    const [firstPage] = orderPages(crm.requests);
    expect(firstPage.query.has('filter[updatedAtFrom]')).toBe(false);
    expect(firstPage.query.get('filter[updatedAtTo]')).toMatch(LOCAL_TIME);
  });

  it('every deal is an order with its status mapped by pattern and its local times sent in UTC', () => {
    expect(sortedById(contents.orders.map(orderListView))).toEqual(sortedById(expectedDeals.map(expectedOrderListView)));
    const cancelled = contents.orders.find((o) => o.id === '2')!; // status cancel-other
    expect(cancelled.status.id).toBe('2');
    expect(cancelled.creation_date).toBe('2025-03-01T09:00:00+0000'); // "2025-03-01 12:00:00" in Moscow
  });

  it('order info shows the products, the status history and the client linked to each order', async () => {
    const details = await orderDetails(e2e.tracker, expectedDeals.map((d) => d.id));
    const clients = new Map(expectedClients.map((c) => [c.id, c]));
    for (const deal of expectedDeals) {
      expect({ deal: deal.id, ...orderDetailView(details.get(deal.id)!) }).toEqual({
        deal: deal.id, ...expectedOrderDetailView(deal, clients.get(deal.client_id!)),
      });
    }
  });

  it('every manager arrived', () => {
    expect(sortedById(contents.managers.map(managerView))).toEqual(sortedById(expectedManagers.map(expectedManagerView)));
  });

  it('a second run asks only for orders changed since the cursor minus the overlap, in Moscow time, and sends nothing', async () => {
    const before = crm.requests.length;
    const second = await e2e.run();
    expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
    for (const stream of ['managers', 'clients', 'deals'] as const) expect({ stream, sent: second.streams[stream]!.sent }).toEqual({ stream, sent: 0 });
    const pages = orderPages(crm.requests.slice(before));
    // the latest order changed at 2025-03-03 07:30 Moscow time; the overlap is 5 minutes; one page, fetched once
    expect(orders[ORDER_COUNT - 1].updatedAt).toBe('2025-03-03 07:30:00');
    expect(pages.map((r) => [r.query.get('filter[updatedAtFrom]'), r.query.get('page')])).toEqual([['2025-03-03 07:25:00', '1']]);
  });
});
