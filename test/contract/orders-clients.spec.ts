import { AddOrder, TrackerClient, Visit, formatTrackerDate } from '../../src/tracker';
import { ContractSandbox } from './contract-sandbox';
import { expectPlanExercised } from './contract-plan';
import {
  arrayOf, bool, dateTime, expectEach, int, nullOr, num, obj, oneOf, responseTimestamp, str, timestamp, zeroOne,
} from './shapes';

/** Visit (full record), as the specification's field table gives it. */
const VISIT_SHAPE = {
  id: str, first_visit_id: str, date: timestamp, landing_page: str, host: str,
  google_client_id: nullOr(str), metrics_client_id: nullOr(str), gclid: nullOr(str), fbc: nullOr(str), fbp: nullOr(str),
  ip: str,
  tracker_param1: nullOr(str), tracker_param2: nullOr(str), tracker_param3: nullOr(str), tracker_param4: nullOr(str),
  tracker_param5: nullOr(str),
  tracker_params: obj,
  device: { os: str, os_icon: str, agent: str, agent_icon: str, is_mobile: bool },
  source: {
    referrer: str, system_name: str, display_name: str, display_name_by_level: arrayOf(str), icon_url: str,
    utm_source: nullOr(str), utm_medium: nullOr(str), utm_campaign: nullOr(str), utm_term: nullOr(str),
    utm_content: nullOr(str), openstat: nullOr(str),
  },
  geo: { country: str, region: str, city: str, icon_url: str, country_iso: str },
  order_ids: arrayOf(str), cost: num, ab_test: arrayOf({ asymmetricMatch: (v: unknown) => !!v && typeof v === 'object' }),
};

const ORDER_ITEM_SHAPE = {
  id: str, url: str, source_type: str, creation_date: timestamp, update_date: nullOr(timestamp),
  revenue: nullOr(int), cost: nullOr(int), client_id: nullOr(str),
  custom_fields: { status_name: str, tracker: nullOr(int) },
  status: { id: str, type: oneOf('unused', 'progress', 'paid', 'canceled'), name: str },
};

const VISIT_SUMMARY_SHAPE = {
  id: str, date: timestamp, city: str, country: str, country_icon: str, is_first_visit: zeroOne, is_order_visit: zeroOne,
  marker: str, marker_info: arrayOf({ asymmetricMatch: (v: any) => typeof v?.marker === 'string' && typeof v?.alias === 'string' }),
  marker_icon: str, referrer: str, landing_page: str, host: str, os_name: str, os_icon: str, browser_name: str, browser_icon: str,
};

const ADD_ORDERS_COUNTER_NAMES = [
  'uploaded', 'processed', 'skipped_by_status', 'skipped_by_waiting_visit_info', 'skipped_by_internal_error',
  'skipped_because_not_changed', 'skipped_by_invalid_format', 'skipped_fields_by_invalid_format', 'saved',
];

const HOUR = 3_600_000;

describe('contract: orders, clients, managers, visits, projects', () => {
  let sandbox: ContractSandbox;
  let client: TrackerClient;
  let visit: Visit;

  beforeAll(async () => {
    sandbox = await ContractSandbox.start();
    client = sandbox.client();
  });
  afterAll(() => sandbox?.close());

  describe('visits', () => {
    it('visits.list answers Visit records, total and status; dotted filters select by source', async () => {
      const all = await client.visits.list({ limit: 5 });
      expect(all).toMatchObject({ status: 'success', total: int });
      expect(all.total).toBeGreaterThanOrEqual(2000);
      const items = Array.isArray(all.data) ? all.data : [all.data];
      expect(items).toHaveLength(5);
      expectEach(items, VISIT_SHAPE);
      visit = items[0];
      const channel = visit.source.system_name;
      const filtered = await client.visits.list({ limit: 50, filters: [['source.system_name', '=', channel]] });
      const selected = Array.isArray(filtered.data) ? filtered.data : [filtered.data];
      expect(selected.length).toBeGreaterThan(0);
      expect(selected.every((v) => v.source.system_name === channel)).toBe(true);
      expect(filtered.total).toBeLessThan(all.total);
    });

    it('visits.list rejects a filter on a not-filterable field with 400 naming it', async () => {
      const error = await client.visits.list({ filters: [['gclid', '=', 'abc']] }).catch((e: unknown) => e);
      expect(error).toMatchObject({ httpStatus: 400, description: expect.stringContaining('gclid') });
    });

    it('visits.updateParams writes tracker_param1 and tracker_param50 of a visit', async () => {
      await expect(
        client.visits.updateParams({ visit: visit.id, tracker_param1: 'contract-p1', tracker_param50: 'contract-p50' }),
      ).resolves.toMatchObject({ status: 'success' });
      const answer = await client.visits.list({ filters: [['id', '=', visit.id]] });
      const [updated] = Array.isArray(answer.data) ? answer.data : [answer.data];
      expect(updated.id).toBe(visit.id);
      expect(updated.tracker_param1).toBe('contract-p1');
      expect(updated.tracker_params['50']).toBe('contract-p50');
    });
  });

  describe('orders', () => {
    const created = new Date(Date.now() - 2 * HOUR);
    const orders = (): AddOrder[] => [
      {
        id: 'contract-1', name: 'Contract order 1', date_create: formatTrackerDate(created), status: '1',
        tracker: visit.id, price: '1500', cost: '400', client_id: 'contract-client-1',
        fields: { manager: 'Anna' },
        products: [{ id: 'p-1', name: 'Widget', quantity: 2, price: 750, cost: 200, brand: 'Acme', category: { level1: 'Tools', level2: 'Hand' } }],
        history: [{ date: formatTrackerDate(created), status: '0', price: 1500 }],
      },
      {
        id: 'contract-2', name: 'Contract order 2', date_create: String(Math.floor(created.getTime() / 1000)),
        status: '0', price: '900', client_id: 'contract-client-1',
      },
    ];

    it('orders.addBatch answers all nine counters and comment', async () => {
      const answer = await client.orders.addBatch(orders());
      expect(answer).toMatchObject({ status: 'success', comment: str });
      for (const name of ADD_ORDERS_COUNTER_NAMES) expect([name, (answer as any)[name]]).toEqual([name, int]);
      expect(answer).toMatchObject({ processed: 2, uploaded: 2, saved: 2, skipped_by_invalid_format: 0 });
    });

    it('orders.list answers Order items with status {id,type,name} and visit null without extend', async () => {
      const answer = await client.orders.list({ limit: 10 });
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.data, { ...ORDER_ITEM_SHAPE, visit: null });
      const mine = answer.data.find((o) => o.id === 'contract-1');
      expect(mine).toMatchObject({ revenue: 1500, cost: 400, client_id: 'contract-client-1', status: { id: '1', type: 'paid' } });
      // Sent as '+0000' (contract-1) and as UNIX time (contract-2): both come back as the same UTC instant.
      const sent = responseTimestamp(new Date(Math.floor(created.getTime() / 1000) * 1000));
      expect(answer.data.filter((o) => o.id.startsWith('contract-')).map((o) => [o.id, o.creation_date]).sort())
        .toEqual([['contract-1', sent], ['contract-2', sent]]);
    });

    it('orders.list with extend visit and an and-filter attaches the full visit', async () => {
      const answer = await client.orders.list({
        extend: ['visit'],
        filters: { and: [['creation_date', '>=', formatTrackerDate(new Date(created.getTime() - HOUR))], ['status', '=', '1']] },
        limit: 10,
      });
      const mine = answer.data.find((o) => o.id === 'contract-1');
      expect(mine).toMatchObject({ ...ORDER_ITEM_SHAPE, visit: VISIT_SHAPE });
      expect(mine!.visit!.id).toBe(visit.id);
      expect(answer.data.every((o) => o.status.type === 'paid')).toBe(true);
    });

    it('orders.info answers order, visits and products per the Order detail', async () => {
      const detail = await client.orders.info('contract-1');
      expect(detail).toMatchObject({ status: 'success' });
      expect(detail.order).toMatchObject({
        id: 'contract-1', title: str, url: str,
        source: { type: oneOf('proxyform', 'phone', 'lead_hunter'), icon_url: str, title: str },
        creation_date: timestamp, update_date: nullOr(timestamp), paid_date: nullOr(timestamp),
        status: 'paid', status_name: str, status_original: '1', price: 1500, cost: 400,
        visit_id: visit.id, visit: VISIT_SUMMARY_SHAPE,
        fields_data: { manager: 'Anna', status_name: str, tracker: str },
        is_multichannel: zeroOne, visits_count: int, client_phones: arrayOf(str), client_emails: arrayOf(str),
        client_name: str, client_id: str, client_external_id: 'contract-client-1', is_first: bool, is_first_sale: bool,
      });
      expectEach(detail.visits, VISIT_SUMMARY_SHAPE);
      expect(detail.products).toEqual([
        expect.objectContaining({
          id: 'p-1', name: 'Widget', price: 750, cost: 200, brand: 'Acme', variant: nullOr(str), quantity: 2, fields: arrayOf(obj),
          categories: [{ level: str, value: 'Tools' }, { level: str, value: 'Hand' }],
        }),
      ]);
    });

    it('orders.externalUrl answers the CRM address of the order', async () => {
      const answer = await client.orders.externalUrl('contract-1');
      expect(answer).toEqual({ status: 'success', externalUrl: str });
    });
  });

  describe('project statuses (outside the specification, shapes from public clients)', () => {
    it('orders.listStatuses unwraps the dictionary; orders.setStatuses adds a status add-orders then accepts', async () => {
      const before = await client.orders.listStatuses();
      expect(before.map((s) => s.id)).toEqual(expect.arrayContaining(['0', '1', '2']));
      expectEach(before, { id: str, name: str, type: oneOf('progress', 'paid', 'canceled') });
      const refused = await client.orders.addBatch([{ id: 'contract-stage-1', status: 'C7:PREPAY' }]);
      expect(refused.skipped_by_status).toBe(1);
      await expect(client.orders.setStatuses([...before, { id: 'C7:PREPAY', name: 'Prepayment', type: 'paid' }]))
        .resolves.toMatchObject({ status: 'success' });
      expect(await client.orders.listStatuses()).toContainEqual({ id: 'C7:PREPAY', name: 'Prepayment', type: 'paid' });
      const accepted = await client.orders.addBatch([{ id: 'contract-stage-1', status: 'C7:PREPAY' }]);
      expect(accepted).toMatchObject({ skipped_by_status: 0, saved: 1 });
    });
  });

  describe('project statuses (outside the specification, shapes from public clients)', () => {
    it('orders.listStatuses unwraps the dictionary; orders.setStatuses adds a status add-orders then accepts', async () => {
      const before = await client.orders.listStatuses();
      expect(before.map((s) => s.id)).toEqual(expect.arrayContaining(['0', '1', '2']));
      expectEach(before, { id: str, name: str, type: oneOf('unused', 'progress', 'paid', 'canceled') });
      const refused = await client.orders.addBatch([{ id: 'contract-stage-1', status: 'C7:PREPAY' }]);
      expect(refused.skipped_by_status).toBe(1);
      await expect(client.orders.setStatuses([{ id: 'C7:PREPAY', name: 'Prepayment', type: 'paid' }])).resolves.toMatchObject({ status: 'success' });
      expect(await client.orders.listStatuses()).toContainEqual({ id: 'C7:PREPAY', name: 'Prepayment', type: 'paid' });
      const accepted = await client.orders.addBatch([{ id: 'contract-stage-1', status: 'C7:PREPAY' }]);
      expect(accepted).toMatchObject({ skipped_by_status: 0, saved: 1 });
    });
  });

  describe('clients', () => {
    let clientId: number;

    it('clients.importBatch acknowledges an array of clients', async () => {
      const answer = await client.clients.importBatch([
        { id: 'contract-client-1', name: 'Ivan Petrov', phone: '+79990001122', email: 'ivan@example.com', company: 'Acme', birth_date: '1990-05-01', fields: { tier: 'gold' } },
        { id: 'contract-client-2', name: 'Olga', phone: null, email: 'olga@example.com' },
      ]);
      expect(answer).toMatchObject({ status: 'success' });
    });

    it('clients.list answers Client records, total and status', async () => {
      const answer = await client.clients.list({ limit: 100 });
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.clients, {
        id: int, external_id: str, name: str, phone: str, email: str, company: str,
        first_visit_date: nullOr(timestamp), first_order_date: nullOr(timestamp), last_order_date: nullOr(timestamp),
        birth_date: nullOr(str),
        order_count: int, revenue: int, profit: int, comment: nullOr(str), client_url: str,
        first_visit_marker: nullOr(str), first_visit_marker_alias: str, first_visit_marker_icon: str,
        first_visit_marker_alias_level_1: str,
      });
      const ivan = answer.clients.find((c) => c.external_id === 'contract-client-1');
      expect(ivan).toMatchObject({ name: 'Ivan Petrov', email: 'ivan@example.com', company: 'Acme' });
      clientId = ivan!.id;
      const filtered = await client.clients.list({ filters: [['external_id', '=', 'contract-client-2']] });
      expect(filtered.clients.map((c) => c.external_id)).toEqual(['contract-client-2']);
    });

    it('clients.feed answers typed feed items, the client\'s orders among them', async () => {
      const answer = await client.clients.feed(clientId);
      expect(answer).toMatchObject({ status: 'success' });
      expectEach(answer.feed, { type: str });
      const order = answer.feed.find((item) => item.type === 'order' && item.id === 'contract-1');
      expect(order).toMatchObject({
        name: str, status: '1', statusType: 'paid', statusTitle: str, revenue: 1500, formattedRevenue: str,
        cost: int, formattedCost: str, fields: obj, creationDate: timestamp, updateDate: nullOr(timestamp),
      });
      const visitItem = answer.feed.find((item) => item.type === 'visit');
      expect(visitItem).toMatchObject({
        visitId: str, creationDate: timestamp, sourceId: str, sourceTitle: str, sourceIcon: str,
        device: { os: str, os_icon: str, agent: str, agent_icon: str, is_mobile: bool },
      });
    });

    it('clients.campaigns answers campaigns with id, title and status_id', async () => {
      const answer = await client.clients.campaigns({ limit: 10 });
      expectEach(answer.data, { id: int, title: str, status_id: str });
    });

    it('clients.campaignContacts answers recipients with the requested metrics, count and total_count', async () => {
      // Independent of clients.campaigns: the demo seed's first campaign when that list fails.
      const campaignIds = await client.clients.campaigns({ limit: 10 }).then((c) => c.data.map((x) => x.id), () => [1]);
      const answer = await client.clients.campaignContacts({ metric_ids: ['sent', 'opened'], campaign_ids: campaignIds });
      expect(answer).toMatchObject({ status: 'success', count: int, total_count: int });
      expectEach(answer.data, { contact: str, metrics: { sent: int, opened: int } });
    });
  });

  describe('managers', () => {
    const find = async (email: string) => (await client.managers.list()).data.find((m) => m.email === email);

    it('add, list, update and delete a manager', async () => {
      await expect(client.managers.add({ id: '9001', name: 'Maria Contract', email: 'maria@example.com', phone: null }))
        .resolves.toMatchObject({ status: 'success' });
      const list = await client.managers.list();
      expect(list).toMatchObject({ status: 'success', total: int });
      expectEach(list.data, { id: int, name: str, email: str, phone: str });
      expect(await find('maria@example.com')).toMatchObject({ name: 'Maria Contract' });

      await expect(client.managers.update({ id: '9001', name: 'Maria Renamed', phone: '+79990000001' }))
        .resolves.toMatchObject({ status: 'success' });
      expect(await find('maria@example.com')).toMatchObject({ name: 'Maria Renamed', phone: str });

      await expect(client.managers.delete('9001')).resolves.toMatchObject({ status: 'success' });
      expect(await find('maria@example.com')).toBeUndefined();
    });
  });

  describe('projects and tracking code', () => {
    it('projects.list answers Project records including the demo project', async () => {
      const answer = await client.projects.list();
      expect(answer).toMatchObject({ status: 'success' });
      expectEach(answer.projects, {
        id: int, name: str, profit: nullOr(str), creation_date: dateTime, currency: str, is_owner: zeroOne,
      });
      expect(answer.projects.map((p) => p.id)).toContain(Number(sandbox.projectId));
    });

    it('projects.create answers data.project_id and the counter, without status', async () => {
      const answer = await client.projects.create({ name: 'Contract project', currency: 'USD' });
      expect(answer).toEqual({ data: { project_id: int, counter: { id: str, code: str } } });
      const list = await client.projects.list();
      expect(list.projects.find((p) => p.id === answer.data.project_id)).toMatchObject({ name: 'Contract project', currency: 'USD' });
    });

    it('projects.create rejects a currency outside the list with 400 naming currency', async () => {
      const error = await client.projects.create({ name: 'Bad currency', currency: 'XYZ' as never }).catch((e: unknown) => e);
      expect(error).toMatchObject({ httpStatus: 400, description: expect.stringContaining('currency') });
    });

    it('projects.trackingCodes answers data of {id, code}, without status', async () => {
      const answer = await client.projects.trackingCodes();
      expect(answer).not.toHaveProperty('status');
      expectEach(answer.data, { id: str, code: str });
    });
  });

  describe('coverage', () => {
    it('exercised every operation of this file\'s share of TRACKER_OPERATIONS', () => {
      expectPlanExercised('orders-clients', sandbox.exercised);
    });
  });
});
