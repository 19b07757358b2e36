import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Client, Deal, Manager } from '../../src/connectors/canonical';
import type { RunSummary } from '../../src/engine/engine-types';
import { E2eSync } from './e2e-harness';
import { byId, orderDetails, readServiceContents, ServiceContents } from './sandbox-readback';
import {
  clientView, expectedClientView, expectedManagerView, expectedOrderDetailView, expectedOrderListView, managerView,
  orderDetailView, orderListView, sortedById,
} from './service-shape';

/** The plugin template (connectors/example-custom, loaded from its folder like any plugin) end to end. */
const lines = [
  { type: 'manager', id: 'm1', name: 'Анна Петрова', email: 'anna@shop.ru', phone: '+79160000001' },
  { type: 'manager', id: 'm2', name: 'Олег', phone: '+79160000002' },
  { type: 'client', id: 'c1', name: 'Пётр', phones: ['+79160000003', '+74950000000'], emails: ['petr@mail.ru'], company: 'ИП Пётр', birth_date: '1980-02-29', updated_at: '2024-03-01T10:00:00Z' },
  { type: 'client', id: 'c2', name: 'Ольга', email: 'olga@mail.ru', updated_at: '2024-03-02 09:00:00' },
  { type: 'deal', id: 'd1', title: 'Заказ 1', created_at: '2024-03-01 12:00:00', updated_at: '2024-03-01T10:00:00Z', status: '1', price: 1500, cost: 900.4, client_id: 'c1', manager_id: 'm1', visit_id: '1000555' },
  { type: 'deal', id: 'd2', title: 'Заказ 2', created_at: '2024-03-02T09:00:00+03:00', updated_at: '2024-03-05T10:00:00Z', status: '2', price: '99.9', client_id: 'c2', manager_id: 'm2' },
  { type: 'deal', id: 'd3', created_at: 'вчера' },
];

const expected: { managers: Manager[]; clients: Client[]; deals: Deal[] } = {
  managers: [
    { id: 'm1', name: 'Анна Петрова', phone: '+79160000001', email: 'anna@shop.ru' },
    { id: 'm2', name: 'Олег', phone: '+79160000002', email: null },
  ],
  clients: [
    { id: 'c1', name: 'Пётр', phones: ['+79160000003', '+74950000000'], emails: ['petr@mail.ru'], company: 'ИП Пётр', birth_date: '1980-02-29' },
    { id: 'c2', name: 'Ольга', phones: [], emails: ['olga@mail.ru'], company: null, birth_date: null },
  ],
  deals: [
    {
      id: 'd1', title: 'Заказ 1', created_at: new Date('2024-03-01T09:00:00Z'), status: '1', visit_id: '1000555', price: 1500, cost: 900.4,
      client_id: 'c1', manager_id: 'm1',
    },
    { id: 'd2', title: 'Заказ 2', created_at: new Date('2024-03-02T06:00:00Z'), status: '2', visit_id: null, price: 99.9, client_id: 'c2', manager_id: 'm2' },
  ],
};

describe('e2e: example-custom plugin (JSON lines) → engine → sandbox', () => {
  let dir: string;
  let file: string;
  let e2e: E2eSync;
  let first: RunSummary;
  let contents: ServiceContents;
  const write = (items: object[]) => writeFileSync(file, `${items.map((l) => JSON.stringify(l)).join('\n')}\n{"type":"deal","id":"d4",\n`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-custom-'));
    file = join(dir, 'crm.jsonl');
    write(lines);
    e2e = await E2eSync.start({ connectionId: 'custom', connector: 'example-custom', settings: { path: file, page_size: 1 } });
    first = await e2e.run();
    contents = await readServiceContents(e2e.tracker);
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the run succeeds; a bad date and a line that is not JSON are rejected records naming the line', () => {
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams).toMatchObject({
      managers: { sent: 2, rejected: 1 }, clients: { sent: 2, rejected: 1 }, deals: { sent: 2, rejected: 2, sent_without_visit: 1 },
    });
    const deals = first.rejected.filter((r) => r.stream === 'deals').map((r) => ({ id: r.external_id, field: r.field, ref: r.ref }));
    expect(deals).toEqual([
      { id: 'd3', field: 'created_at', ref: `${file} line 7` },
      { id: '', field: '', ref: `${file} line 8` },
    ]);
    expect(first.counters).toMatchObject({ processed: 2, saved: 2 });
  });

  it('every manager, client and deal arrived, field by field', async () => {
    expect(sortedById(contents.managers.map(managerView))).toEqual(sortedById(expected.managers.map(expectedManagerView)));
    expect(sortedById(contents.clients.map(clientView))).toEqual(sortedById(expected.clients.map(expectedClientView)));
    expect(sortedById(contents.orders.map(orderListView))).toEqual(sortedById(expected.deals.map(expectedOrderListView)));
    const details = await orderDetails(e2e.tracker, ['d1', 'd2']);
    const clients = byId(expected.clients, (c) => c.id);
    for (const deal of expected.deals) {
      expect({ deal: deal.id, ...orderDetailView(details.get(deal.id)!) })
        .toEqual({ deal: deal.id, ...expectedOrderDetailView(deal, clients.get(deal.client_id!)) });
    }
  });

  it('a second run sends nothing; a changed deal is sent alone', async () => {
    const second = await e2e.run();
    expect(second.status).toBe('succeeded');
    expect([second.streams.managers?.sent, second.streams.clients?.sent, second.streams.deals?.sent, second.counters.processed]).toEqual([0, 0, 0, 0]);
    write(lines.map((l) => (l.id === 'd2' ? { ...l, price: 120, updated_at: new Date(Date.now() - 60_000).toISOString() } : l)));
    const third = await e2e.run();
    expect([third.streams.deals?.sent, third.counters.saved]).toEqual([1, 1]);
    const d2 = (await readServiceContents(e2e.tracker)).orders.find((o) => o.id === 'd2')!;
    expect(orderListView(d2)).toEqual(expectedOrderListView({ ...expected.deals[1], price: 120 }));
  });
});
