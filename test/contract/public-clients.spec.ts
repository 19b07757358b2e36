import { TrackerApiError, TrackerClient, normalizeAndFilters } from '../../src/tracker';
import { ClientRequest, REQUESTS } from '../fixtures/public-clients/requests';
import { ContractSandbox } from './contract-sandbox';
import { expectEach, oneOf, str } from './shapes';

interface Replayed {
  status: number;
  text: string;
  body: any;
}

/**
 * The requests public clients of the real service build (test/fixtures/public-clients/requests.ts, each with its
 * source), replayed against the sandbox as they are sent; each answer is read the way that client reads it.
 */
describe('contract: what public clients send and parse', () => {
  let sandbox: ContractSandbox;
  let client: TrackerClient;
  /** A project of its own for the requests that replace the status dictionary. */
  let statusProject: string;
  let statusClient: TrackerClient;

  async function replay(request: ClientRequest, vars: Record<string, string> = {}): Promise<Replayed> {
    const values: Record<string, string> = { key: sandbox.apiKey, project: sandbox.projectId, ...vars };
    const fill = (text: string) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
    const url = new URL(`${sandbox.baseUrl}${fill(request.path)}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, fill(value));
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, fill(value)]));
    const response = await fetch(url, {
      method: request.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    sandbox = await ContractSandbox.start();
    client = sandbox.client();
    statusProject = String((await client.projects.create({ name: 'statuses', currency: 'RUB' })).data.project_id);
    statusClient = sandbox.client({ project: statusProject });
  });
  afterAll(() => sandbox?.close());

  describe('the project status dictionary', () => {
    it('n8n getStatuses: listFrom(payload, "data") gives {id, name, type}; the statuses start as the demo project\'s', async () => {
      const answer = await replay(REQUESTS.n8nListStatuses);
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('success');
      expectEach(answer.body.data, { id: str, name: str, type: oneOf('progress', 'paid', 'canceled') });
      expect(answer.body.data.map((s: { id: string }) => s.id)).toEqual(['0', '1', '2', 'new', 'in_work', 'negotiation', 'won', 'lost', '142', '143']);
    });

    it('Python get_all_statuses: data["total"] bounds the loop over data["data"][i]["id"] / ["name"]', async () => {
      const data = (await replay(REQUESTS.pythonListStatuses)).body;
      const statuses: Record<string, string> = {};
      for (let i = 0; i < data.total; i += 1) statuses[data.data[i].id] = data.data[i].name;
      expect(Object.keys(statuses)).toHaveLength(data.data.length);
      expect(statuses['1']).toBe('Paid');
    });

    it('n8n setStatuses replaces the dictionary; add-orders then accepts those ids and counts any other in skipped_by_status', async () => {
      const set = await replay(REQUESTS.n8nSetStatuses, { project: statusProject });
      expect(set).toMatchObject({ status: 200, body: { status: 'success' } });
      const listed = await replay(REQUESTS.n8nListStatuses, { project: statusProject });
      expect(listed.body).toEqual({ status: 'success', total: 3, data: REQUESTS.n8nSetStatuses.body });
      const upload = await replay(REQUESTS.n8nUploadDeal, { project: statusProject });
      expect(upload.body).toMatchObject({ status: 'success', processed: 1, saved: 1, skipped_by_status: 0, skipped_by_invalid_format: 0 });
      const stale = await statusClient.orders.addBatch([{ id: 'n8n-deal-2', status: '0' }]);
      expect(stale).toMatchObject({ saved: 0, skipped_by_status: 1 });
    });

    it('the PHP sync script sets its statuses with the key in the query string; its order with an undefined status is skipped_by_status', async () => {
      expect((await replay(REQUESTS.phpSyncSetStatuses, { project: statusProject })).body).toEqual({ status: 'success' });
      const upload = (await replay(REQUESTS.phpSyncAddOrders, { project: statusProject })).body;
      expect(upload).toMatchObject({ status: 'success', processed: 2, saved: 1, skipped_by_status: 1 });
      // An order stored under a status the dictionary no longer holds is listed with type unused.
      const listed = await statusClient.orders.list({ filters: [['id', '=', 'n8n-deal-1']] });
      expect(listed.data[0].status).toEqual({ id: 'won', type: 'unused', name: 'won' });
      const pyrus = await statusClient.orders.list({ filters: [['id', '=', 'pyrus-101']] });
      expect(pyrus.data[0].status).toEqual({ id: '5', type: 'paid', name: 'Договор заключен' });
    });
  });

  describe('orders', () => {
    beforeAll(async () => {
      await client.orders.addBatch([
        { id: 'pc-1', status: '1', price: '100', date_create: '2026-06-01 10:00:00+0000' },
        { id: 'pc-2', status: '0', price: '200', date_create: '2026-06-01 11:00:00+0000' },
      ]);
    });

    it('n8n upload: date_create as YYYY-MM-DD HH:MM is read (as UTC+03:00), not skipped_by_invalid_format', async () => {
      const answer = (await replay(REQUESTS.n8nUploadDeal)).body;
      expect(answer).toMatchObject({ status: 'success', saved: 1, skipped_by_invalid_format: 0, comment: '' });
      const detail = await client.orders.info('n8n-deal-1');
      expect(detail.order.creation_date).toBe('2026-06-01T06:30:00+0000');
    });

    it('n8n getMany by status: one condition as a flat array is answered; each order\'s status is {id, type, name}', async () => {
      const answer = await replay(REQUESTS.n8nOrdersByStatus);
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeGreaterThan(0);
      expectEach(answer.body.data, { status: { id: str, type: 'paid', name: str } });
    });

    it('one condition wrapped in and: HTTP 500 internal_error, as n8n found on a live project', async () => {
      const answer = await replay(REQUESTS.n8nSingleConditionInAnd);
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ status: 'error', error: 'internal_error' });
    });

    it('our client\'s workaround: a caller\'s {and: [one]} is sent flat and answered, on every list that takes and', async () => {
      expect(normalizeAndFilters({ and: [['status', '=', '1']] })).toEqual([['status', '=', '1']]);
      const orders = await client.orders.list({ filters: { and: [['id', '=', 'pc-1']] } });
      expect(orders.data.map((o) => o.id)).toEqual(['pc-1']);
      const visits = await client.visits.list({ filters: { and: [['id', '=', '1000001']] }, limit: 5 });
      expect(visits.total).toBe(1);
      await expect(client.clients.list({ filters: { and: [['id', '=', 'nobody']] } })).resolves.toMatchObject({ status: 'success' });
      await expect(client.emailtracking.list({ filters: { and: [['date', '>=', '2020-01-01 00:00:00']] } })).resolves.toMatchObject({ status: 'success' });
    });

    it('Python get_all_deals: two conditions in and, limit in the query; reads data[i]["status"]["id"] and id, cost, creation_date, source_type', async () => {
      const data = (await replay(REQUESTS.pythonOrdersInPeriod)).body;
      expect(data.status).toBe('success');
      const ids = data.data.map((deal: any) => deal.id);
      expect(ids).toEqual(expect.arrayContaining(['pc-1', 'pc-2', 'n8n-deal-1']));
      expectEach(data.data, { id: str, creation_date: str, source_type: str, status: { id: str } });
      for (const deal of data.data) expect(deal).toHaveProperty('cost'); // null or a number: the script copies it as is
    });

    it('PHP SDK order list with ?project=&key= (no key header): data[] as its Order entity reads it', async () => {
      const answer = await replay(REQUESTS.phpSdkOrderList);
      expect(answer.status).toBe(200);
      expect(answer.body).not.toHaveProperty('error');
      expectEach(answer.body.data, { id: str, creation_date: str, status: { id: str, type: str, name: str } });
    });

    it('external-url answers externalUrl (PHP SDK recorded answer, n8n getExternalUrl)', async () => {
      const php = await replay(REQUESTS.phpSdkExternalUrl, { order: 'pc-1' });
      expect(php.body).toEqual({ externalUrl: str, status: 'success' });
      const n8n = await replay(REQUESTS.n8nExternalUrl, { order: 'pc-1' });
      expect(n8n.body.externalUrl ?? null).toMatch(/^https?:\/\//);
      expect((await client.orders.externalUrl('pc-1')).externalUrl).toBe(php.body.externalUrl);
    });
  });

  describe('events and list bodies', () => {
    it('n8n sendMany with an event name the project never defined: success, and nothing logged', async () => {
      const before = await client.events.log({});
      const answer = await replay(REQUESTS.n8nBulkSendEvents);
      expect(answer).toMatchObject({ status: 200, body: { status: 'success' } });
      expect((await client.events.log({})).items.length).toBe(before.items.length);
    });

    it('Ruby script_list(is_deleted: nil): an explicit null is absent, not "required field is missing"', async () => {
      const answer = await replay(REQUESTS.rubyScriptListWithNull);
      expect(answer.body.status).toBe('success');
      expect(answer.body.data).toEqual(expect.any(Array));
    });
  });

  describe('errors, as the clients map them', () => {
    it('Ruby gem: a wrong key answers authentication_failed (HTTP 200 without Use-Http-Code), its AuthenticationError', async () => {
      const answer = await replay(REQUESTS.rubyWrongKey);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'error', error: 'authentication_failed', description: str });
    });

    it('n8n: a project the key cannot see answers 403 access_denied with a description', async () => {
      const answer = await replay(REQUESTS.n8nOtherProject);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ status: 'error', error: 'access_denied', description: str });
    });

    it('PHP SDK: an unknown method answers resource_not_found, and the description never echoes the key', async () => {
      const answer = await replay(REQUESTS.phpSdkUnknownMethod);
      expect(answer.body).toMatchObject({ status: 'error', error: 'resource_not_found' });
      expect(answer.text).not.toContain(sandbox.apiKey);
      expect(answer.body.description).toContain('/project/no-such-method');
    });

    it('a bad body answers request_data_validation_error naming the field', async () => {
      const answer = await replay({ ...REQUESTS.n8nSetStatuses, body: [{ id: 'x', name: 'X', type: 'won' }] });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'request_data_validation_error', details: { field: '[0].type' } });
    });

    it('the daemon\'s client: authentication_failed refuses the key whatever the HTTP status', async () => {
      const wrong = sandbox.client({ apiKey: 'not-a-key-of-this-sandbox', retries: 0 });
      const error = await wrong.orders.listStatuses().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TrackerApiError);
      expect(error).toMatchObject({ refused: { what: 'api_key' }, error: 'authentication_failed', httpStatus: 401 });
    });
  });
});
