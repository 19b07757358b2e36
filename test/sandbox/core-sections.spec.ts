import { SandboxDocumentStore } from '../../src/sandbox/storage/document-store';
import { SandboxHarness } from './sandbox-harness';

/** Visits, clients, managers, projects and tracking code of the sandbox core. */
describe('sandbox core sections', () => {
  let sandbox: SandboxHarness;
  const HTTP = { headers: { 'Use-Http-Code': '1' } };

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
  });
  afterAll(() => sandbox.close());

  describe('visits', () => {
    it('lists the 2,000 demo visits with dotted filters and paging', async () => {
      const all = await sandbox.post('project/site/visit/list', { limit: 3 });
      expect(all.body).toMatchObject({ status: 'success', total: 2000 });
      expect(all.body.data).toHaveLength(3);
      expect(all.body.data[0]).toMatchObject({ id: '1000001', first_visit_id: '1000001', tracker_params: expect.any(Object) });
      const ads = await sandbox.post('project/site/visit/list', { filters: [['source.system_name', '=', 'google_ads']], limit: 10000 });
      expect(ads.body.total).toBeGreaterThan(0);
      expect(ads.body.total).toBeLessThan(2000);
      expect(ads.body.data.every((visit: any) => visit.source.system_name === 'google_ads')).toBe(true);
      const utm = await sandbox.post('project/site/visit/list', { filters: [['source.utm_medium', 'in', ['cpc', 'email']], ['id', 'like%', '10000']] });
      expect(utm.body.data.every((visit: any) => ['cpc', 'email'].includes(visit.source.utm_medium))).toBe(true);
    });

    it('rejects the fields the specification marks as not filterable', async () => {
      for (const field of ['gclid', 'device.os', 'geo.city', 'cost', 'source.openstat']) {
        const answer = await sandbox.post('project/site/visit/list', { filters: [[field, '=', 'x']] }, HTTP);
        expect(answer.status).toBe(400);
        expect(answer.body.description).toContain(field);
      }
    });

    it('answers at most 10,000 records (400 above, with the cap) and at most 1 request per second with the budget on', async () => {
      const limited = await SandboxHarness.start({ budget: 'on' });
      try {
        const [first, second] = await Promise.all([
          limited.post('project/site/visit/list', { limit: 1 }, HTTP), limited.post('project/site/visit/list', { limit: 1 }, HTTP),
        ]);
        expect([first.status, second.status].sort()).toEqual([200, 429]);
        expect([first, second].find((answer) => answer.status === 429)?.headers.get('retry-after')).toBe('1');
        await limited.post('_sandbox/visits', Array.from({ length: 8100 }, (_, index) => ({ id: String(3_000_000 + index) })));
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const refused = await limited.post('project/site/visit/list', { limit: 20000 }, HTTP);
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ error: 'request_data_validation_error', details: { field: 'limit', max: 10000 } });
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const capped = await limited.post('project/site/visit/list', { limit: 10000, offset: 50 }, HTTP);
        expect(capped.body.total).toBe(10100);
        expect(capped.body.data).toHaveLength(10000);
        // read in chunks of 2,000 by (date, id): the page is the same as one read in full would give
        const ids = capped.body.data.map((visit: { id: string }) => visit.id);
        expect(new Set(ids).size).toBe(10000);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const tail = await limited.post('project/site/visit/list', { limit: 100, offset: 10050 }, HTTP);
        expect(tail.body.data).toHaveLength(50);
        expect(tail.body.data.filter((visit: { id: string }) => ids.includes(visit.id))).toHaveLength(0);
      } finally {
        await limited.close();
      }
    });

    it('updates tracker_param1..50 and refuses N above 50', async () => {
      const ok = await sandbox.post('project/site/visit/params/update', { visit: '1000009', tracker_param1: 'a', tracker_param50: 'z' });
      expect(ok.body.status).toBe('success');
      const visit = (await sandbox.post('project/site/visit/list', { filters: [['id', '=', '1000009']] })).body.data[0];
      expect(visit).toMatchObject({ tracker_param1: 'a', tracker_params: { 1: 'a', 50: 'z' } });
      const filtered = await sandbox.post('project/site/visit/list', { filters: [['tracker_params.50', '=', 'z']] });
      expect(filtered.body.data.map((item: any) => item.id)).toEqual(['1000009']);
      const over = await sandbox.post('project/site/visit/params/update', { visit: '1000009', tracker_param51: 'x' }, HTTP);
      expect(over.status).toBe(400);
      expect(over.body.description).toContain('tracker_param51');
      const noVisit = await sandbox.post('project/site/visit/params/update', { tracker_param1: 'x' }, HTTP);
      expect(noVisit.body.description).toContain('visit');
    });
  });

  describe('clients', () => {
    it('imports, lists with statistics and builds the feed from visits, orders and history', async () => {
      const imported = await sandbox.post('project/clients/import', [
        { id: 'crm-77', name: 'Ivan', phone: '+7 900 000-00-00, +7 901 000-00-00', email: 'ivan@example.com', birth_date: '1990-05-01' },
        { id: 'crm-78', name: 'Olga', email: 'olga@example.com' },
      ]);
      expect(imported.body.status).toBe('success');
      await sandbox.post('project/add-orders', [
        { id: 'feed-1', client_id: 'crm-77', tracker: '1000004', price: '300', cost: '100', status: '1', date_create: 1704103200,
          history: [{ date: '2024-01-01 15:00:00', status: '1', price: 300, cost: null }] },
      ]);
      // Triggers and calls are written by the events and speech sections as documents.
      const documents = sandbox.app.get(SandboxDocumentStore);
      await documents.insert(1, 'event_log', { display_name: 'Cart', parameter: 'cart', type: 'js',
        event_date: '2024-01-01T12:00:00+0000', data: null, visit_id: '1000004', event_id: '3' });
      await documents.insert(1, 'speech_call', { date: '2024-01-01T13:00:00+0000', callee: '+7495', caller: '+7900',
        file_url: 'http://127.0.0.1/rec.mp3', duration: 61, call_status: 'ANSWER', order_id: 'feed-1', visit_id: null });
      const list = await sandbox.post('project/clients', { filters: [['external_id', '=', 'crm-77']] });
      expect(list.body.total).toBe(1);
      const client = list.body.clients[0];
      expect(client).toMatchObject({ name: 'Ivan', order_count: 1, revenue: 300, profit: 200, first_visit_date: expect.any(String) });
      const feed = await sandbox.get(`project/clients/detail/feed?client=${client.id}`);
      const types = feed.body.feed.map((item: any) => item.type);
      expect(types).toEqual(expect.arrayContaining(['visit', 'order', 'orderStatusChange', 'orderPriceChange', 'event', 'call']));
      expect(feed.body.feed.find((item: any) => item.type === 'event')).toEqual({
        type: 'event', metaId: '3', creationDate: '2024-01-01T12:00:00+0000', name: 'Cart' });
      expect(feed.body.feed.find((item: any) => item.type === 'call')).toMatchObject({ duration: '61', status: 'ANSWER' });
      expect(feed.body.feed.find((item: any) => item.type === 'order')).toMatchObject({ id: 'feed-1', revenue: 300, formattedRevenue: '300 RUB' });
      const info = await sandbox.get('project/orders/feed-1/info');
      expect(info.body.order).toMatchObject({ client_name: 'Ivan', client_external_id: 'crm-77', client_emails: ['ivan@example.com'] });
      expect(info.body.order.client_phones).toHaveLength(2);
    });

    it('rejects a client without id or name, and a bad birth_date', async () => {
      const noName = await sandbox.post('project/clients/import', [{ id: 'x' }], HTTP);
      expect(noName.status).toBe(400);
      expect(noName.body.description).toContain('[0].name');
      const badDate = await sandbox.post('project/clients/import', [{ id: 'x', name: 'X', birth_date: '01.01.1990' }], HTTP);
      expect(badDate.body.description).toContain('[0].birth_date');
      const noClient = await sandbox.get('project/clients/detail/feed', HTTP);
      expect(noClient.body.description).toContain('client');
    });
  });

  describe('managers', () => {
    it('adds, lists, updates only the given fields, and deletes', async () => {
      const project = await sandbox.newProject('managers');
      const call = (path: string, body: unknown) => sandbox.post(`project/integration/manager/${path}`, body, { project });
      expect((await call('add', { id: '15', name: 'Anna', phone: '+7000' })).body.status).toBe('success');
      expect((await call('add', { id: '16', name: 'No contact' })).body.description).toContain('phone');
      expect((await call('update', { id: '15', email: 'anna@example.com' })).body.status).toBe('success');
      expect((await call('list', {})).body).toEqual({
        data: [{ id: 15, name: 'Anna', phone: '+7000', email: 'anna@example.com' }], total: 1, status: 'success',
      });
      expect((await call('delete', { id: '15' })).body.status).toBe('success');
      expect((await call('list', {})).body.total).toBe(0);
      expect((await call('delete', { id: '15' })).body.error).toBe('resource_not_found');
    });
  });

  describe('projects and tracking code', () => {
    it('creates a project in an allowed currency and lists it with a tracking code', async () => {
      const created = await sandbox.post('account/project/create', { name: 'Shop EU', currency: 'EUR' }, { project: null });
      expect(created.body).toEqual({ data: { project_id: expect.any(Number), counter: { id: expect.any(String), code: expect.stringContaining('<script') } } });
      const projects = (await sandbox.get('user/projects', { project: null })).body.projects;
      expect(projects).toEqual(expect.arrayContaining([
        expect.objectContaining({ id: created.body.data.project_id, name: 'Shop EU', currency: 'EUR', is_owner: 1, profit: null }),
      ]));
      const counters = await sandbox.post('project/settings/counter/list', {}, { project: created.body.data.project_id });
      expect(counters.body).toEqual({ data: [created.body.data.counter] });
      const viaGet = await sandbox.get('project/settings/counter/list', { project: created.body.data.project_id });
      expect(viaGet.body).toEqual(counters.body);
    });

    it('refuses a currency outside the list and a missing name', async () => {
      expect((await sandbox.post('account/project/create', { name: 'x', currency: 'usd' }, { project: null, ...HTTP })).status).toBe(400);
      const noName = await sandbox.post('account/project/create', { currency: 'USD' }, { project: null, ...HTTP });
      expect(noName.body.description).toContain('name');
    });
  });
});
