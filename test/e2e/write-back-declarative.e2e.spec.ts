import type { RunSummary } from '../../src/engine/engine-types';
import { busiestWindow } from '../support/arrival-windows';
import { DEFAULT_RATE_LIMIT } from '../../src/tracker/http/rate-limits';
import type { Order } from '../../src/tracker/types/orders.types';
import { CrmServer, FixtureAnswer, FixtureRequest, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { E2eSync } from './e2e-harness';

/**
 * Write-back into a CRM without a preset: the update request is described in `write_back.request`
 * (PATCH of a batch, a JSONata body, refusals read from the answer), the fields are named by label or key
 * and resolved against the CRM's field list. A loopback CRM applies and records the updates; the service
 * calls go through a recorder that times the order-list calls.
 */

const TOKEN = 'crm-token-7c1e';
const CRM_INTERVAL_MS = 250; // rate_limit: 4 requests a second
const ORDER_LIST_WITH_VISIT_BELOW_100_MS = 6_000; // 10 a minute

const FIELD_LIST = [
  { key: 'f_visit', label: 'Visit' },
  { key: 'f_src', label: 'Ad source' },
  { key: 'f_camp', label: 'Campaign' },
  { key: 'f_city', label: 'City' },
  { key: 'f_note', label: 'Note' },
];

interface CrmDeal {
  id: number;
  name: string;
  created: string;
  updated: string;
  fields: Record<string, string | null>;
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const deals: CrmDeal[] = [
  { id: 1, name: 'Kitchen', created: hoursAgo(5), updated: hoursAgo(5), fields: { f_visit: '1000001', f_note: 'call back' } },
  { id: 2, name: 'Sofa', created: hoursAgo(4), updated: hoursAgo(4), fields: { f_visit: '1000002', f_note: null } },
  { id: 3, name: 'Locked', created: hoursAgo(3), updated: hoursAgo(3), fields: { f_visit: '1000003', f_note: 'legal hold' } },
  { id: 4, name: 'Walk-in', created: hoursAgo(2), updated: hoursAgo(2), fields: { f_visit: null, f_note: 'no visit' } },
];
const LOCKED = 3;

function handler(request: FixtureRequest): FixtureAnswer {
  if (request.headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { error: 'invalid_token' } };
  if (request.method === 'GET' && request.path === '/api/deals') {
    const since = request.query.get('updated_since');
    const list = deals.filter((d) => !since || d.updated >= since).sort((a, b) => a.updated.localeCompare(b.updated));
    return { body: { deals: list } };
  }
  if (request.method === 'GET' && request.path === '/api/deal-fields') return { body: { fields: FIELD_LIST } };
  if (request.method === 'PATCH' && request.path === '/api/deals/batch') {
    const errors: { id: number; message: string }[] = [];
    for (const update of request.body.updates as { id: string; fields: Record<string, string> }[]) {
      const deal = deals.find((d) => String(d.id) === update.id);
      if (!deal) errors.push({ id: Number(update.id), message: 'no such deal' });
      else if (deal.id === LOCKED) errors.push({ id: deal.id, message: 'deal is locked' });
      else {
        Object.assign(deal.fields, update.fields);
        deal.updated = new Date().toISOString(); // as a CRM does: the write makes the deal "modified"
      }
    }
    return { body: { ok: true, errors } };
  }
  return { status: 404, body: { error: `no route ${request.method} ${request.path}` } };
}

const settings = (baseUrl: string) => ({
  base_url: baseUrl,
  token: TOKEN,
  auth: { type: 'bearer' },
  rate_limit: { requests: 4, per_seconds: 1 },
  visit_field: 'Visit',
  streams: {
    deals: {
      request: { path: '/api/deals', query: { updated_since: '{{cursor}}' } },
      records: 'deals',
      incremental: { field: 'updated', format: 'iso', sorted: true },
      mapping: { id: 'id', title: 'name', created_at: 'created' },
      custom_fields: {
        kind: 'keys', path: 'fields',
        labels: { request: { path: '/api/deal-fields' }, records: 'fields', key: 'key', name: 'label' },
      },
    },
  },
  write_back: {
    fields: { channel: 'Ad source', utm_campaign: 'f_camp', city: 'city' }, // a label, a key, a label in other case
    request: {
      method: 'PATCH',
      path: '/api/deals/batch',
      body: "={ 'updates': [$deals.{ 'id': id, 'fields': values }] }",
      batch_size: 2,
      rejected: "=errors.{ 'id': $string(id), 'reason': message }",
    },
    field_list: { request: { path: '/api/deal-fields' }, records: 'fields', key: 'key', name: 'label' },
  },
});

const isUpdate = (r: FixtureRequest) => r.method === 'PATCH';
const updatedIds = (requests: FixtureRequest[]) => requests.filter(isUpdate).flatMap((r) => r.body.updates.map((u: { id: string }) => u.id));

describe('e2e: write-back into a CRM described in write_back.request', () => {
  let crm: CrmServer;
  let e2e: E2eSync;
  let first: RunSummary;
  /** the orders (with visits) as the service answered the write-back's order list */
  let orders: Map<string, Order>;

  const orderListCalls = () => e2e.serviceCalls!.calls.filter((c) => c.path.endsWith('/project/integration/order/list'));
  const latestOrders = () => new Map((orderListCalls().at(-1)!.answer.data as Order[]).map((o) => [o.id, o]));
  const expectedFields = (order: Order) => ({
    f_src: order.visit!.source.display_name_by_level.join(' / '),
    f_camp: order.visit!.source.utm_campaign ?? '',
    f_city: order.visit!.geo.city,
  });

  beforeAll(async () => {
    crm = await startCrmServer(handler);
    e2e = await E2eSync.start({
      connectionId: 'custom-crm', connector: 'generic-crm', settings: settings(crm.url),
      trackerRateLimit: DEFAULT_RATE_LIMIT, recordServiceCalls: true,
    });
    first = await e2e.run();
    orders = latestOrders();
  }, 30_000);
  afterAll(async () => {
    await e2e?.stop();
    await crm?.close();
  });

  it('a successful sync is followed by a write-back run with its counters', () => {
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams.deals).toMatchObject({ sent: 4, rejected: 0 });
    const writeBack = first.followedBy!;
    expect({ mode: writeBack.mode, status: writeBack.status, error: writeBack.error }).toEqual({ mode: 'write_back', status: 'succeeded', error: null });
    expect(writeBack.writeBack).toEqual({ attributed: 3, written: 2, unchanged: 0, rejected: 1 });
    expect(writeBack.rejected.map((r) => [r.stream, r.external_id, r.reason])).toEqual([
      ['write_back', '3', 'the CRM refused the update: deal is locked'],
    ]);
  });

  it('attributed deals get exactly the configured fields with the visit\'s values; the deal without a visit is not touched', () => {
    expect(orders.get('1')!.visit!.source.display_name_by_level.length).toBeGreaterThan(0);
    const updates = crm.requests.filter(isUpdate);
    expect(updates.map((r) => r.body.updates.map((u: { id: string }) => u.id))).toEqual([['1', '2'], ['3']]);
    for (const update of updates.flatMap((r) => r.body.updates as { id: string; fields: Record<string, string> }[])) {
      expect(update.fields).toEqual(expectedFields(orders.get(update.id)!));
    }
    expect(deals[0].fields).toEqual({ f_visit: '1000001', f_note: 'call back', ...expectedFields(orders.get('1')!) });
    expect(deals[3].fields).toEqual({ f_visit: null, f_note: 'no visit' });
    expect(updatedIds(crm.requests)).not.toContain('4');
  });

  it('the written fields are not sent to the service as custom fields', () => {
    const fields = orders.get('1')!.custom_fields;
    expect(fields).toMatchObject({ Note: 'call back' });
    expect(Object.keys(fields)).not.toEqual(expect.arrayContaining(['Ad source']));
    expect(Object.keys(fields).filter((k) => ['Ad source', 'Campaign', 'City', 'f_src', 'f_camp', 'f_city'].includes(k))).toEqual([]);
  });

  it('a second pass writes nothing new (the refused deal is tried again)', async () => {
    const before = crm.requests.length;
    const second = await e2e.writeBack();
    expect(second.writeBack).toEqual({ attributed: 3, written: 0, unchanged: 2, rejected: 1 });
    expect(updatedIds(crm.requests.slice(before))).toEqual(['3']);
  }, 30_000);

  it('a deal whose visit changes gets its fields updated; the deals the write modified are not sent again', async () => {
    const deal = deals[1];
    deal.fields.f_visit = '1000010';
    deal.updated = new Date().toISOString();
    const before = crm.requests.length;
    const sync = await e2e.run();
    expect(sync.streams.deals).toMatchObject({ sent: 1, rejected: 0 }); // deal 1, modified by the write, is unchanged for the service
    expect(sync.followedBy!.writeBack).toEqual({ attributed: 3, written: 1, unchanged: 1, rejected: 1 });
    const now = latestOrders();
    expect(now.get('2')!.visit!.id).toBe('1000010');
    expect(updatedIds(crm.requests.slice(before))).toEqual(['2', '3']);
    expect(deal.fields).toMatchObject(expectedFields(now.get('2')!));
  }, 30_000);

  it('keeps to both sides\' limits: the CRM\'s rate limit and the order list\'s per-minute tiers', () => {
    // the CRM counts 4 a second in any sliding second, where the requests arrive
    expect(busiestWindow(crm.requests.map((r) => r.at), 1000)).toBeLessThanOrEqual(1000 / CRM_INTERVAL_MS);
    const calls = orderListCalls();
    expect(calls.length).toBe(3);
    for (const call of calls) expect(call.body).toMatchObject({ extend: ['visit'], limit: 99, offset: 0 });
    const gaps = calls.slice(1).map((c, i) => c.at - calls[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(ORDER_LIST_WITH_VISIT_BELOW_100_MS - 200);
  });

  it('a refused token fails the write-back run', async () => {
    const good = e2e.options.settings.token;
    e2e.options.settings.token = 'revoked';
    try {
      const failed = await e2e.writeBack();
      expect(failed.status).toBe('failed');
      expect(failed.error).toContain("the CRM refused the connection's credentials");
      expect(failed.error).not.toContain('revoked');
    } finally {
      e2e.options.settings.token = good;
    }
  }, 30_000);

  it("the engine alone starts no write-back after a sync: the follow-on is the trigger path's (RunTriggerService)", async () => {
    const engine = e2e.engine();
    const before = crm.requests.length;
    const listed = orderListCalls().length;
    try {
      const { done } = await engine.start('custom-crm', { mode: 'incremental', trigger: 'cli' });
      const sync = await done;
      expect({ status: sync.status, followedBy: sync.followedBy }).toEqual({ status: 'succeeded', followedBy: undefined });
    } finally {
      await engine.shutdown(1000);
    }
    expect(orderListCalls().length).toBe(listed); // no write-back pass read the order list
    expect(updatedIds(crm.requests.slice(before))).toEqual([]);
    const triggered = await e2e.run(); // as the CLI, the scheduler and the admin API start a sync
    expect({ mode: triggered.followedBy?.mode, status: triggered.followedBy?.status }).toEqual({ mode: 'write_back', status: 'succeeded' });
  }, 30_000);
});
