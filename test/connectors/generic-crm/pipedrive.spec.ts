import connector from '../../../connectors/generic-crm';
import { CrmServer, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../../fixtures/crm/pipedrive';
import { readAll, typedSettings } from '../read-helper';
import type { Deal } from '../../../src/connectors/canonical';
import { dealToAddOrder } from '../../../src/engine/mappings/deals';

describe('generic-crm preset pipedrive (API v2; v1 for users)', () => {
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(pipedrive.handler)));
  afterAll(async () => {
    await crm.close();
  });

  it.each(['managers', 'clients', 'deals'] as const)('reads %s field by field', async (stream) => {
    const { records, rejected } = await readAll(connector, stream, pipedrive.settings(crm.url));
    expect(rejected).toEqual([]);
    expect(records).toEqual(pipedrive.expected[stream]);
  });

  it('asks v2 for what changed since the window start, oldest first, and pages by next_cursor', async () => {
    crm.requests.length = 0;
    const since = new Date('2024-01-15T10:00:00Z');
    const { records } = await readAll(connector, 'deals', pipedrive.settings(crm.url), { since, until: new Date('2024-01-16T00:00:00Z') });
    expect(records.map((r) => r.id)).toEqual(['1001', '1002', '1004']);
    const lists = crm.requests.filter((r) => r.path === '/api/v2/deals');
    expect(lists.map((r) => Object.fromEntries(r.query))).toEqual([
      { updated_since: '2024-01-15T10:00:00Z', sort_by: 'update_time', sort_direction: 'asc', limit: '500' },
      { updated_since: '2024-01-15T10:00:00Z', sort_by: 'update_time', sort_direction: 'asc', limit: '500', cursor: expect.any(String) },
    ]);
    // then the archived deals, with the same window (the same cursor)
    const archived = crm.requests.filter((r) => r.path === '/api/v2/deals/archived');
    expect(archived.map((r) => Object.fromEntries(r.query))).toEqual([
      { updated_since: '2024-01-15T10:00:00Z', sort_by: 'update_time', sort_direction: 'asc', limit: '500' },
    ]);
  });

  it('reads archived deals too (GET /v2/deals leaves them out since 2025-07-15), each with its own status', async () => {
    crm.requests.length = 0;
    const { records } = await readAll(connector, 'deals', pipedrive.settings(crm.url));
    expect(records.map((r) => [r.id, (r as { status?: string }).status])).toEqual([['1001', '0'], ['1002', '1'], ['1003', '2'], ['1004', '1']]);
    expect([...new Set(crm.requests.filter((r) => r.path.startsWith('/api/v2/deals') && !r.path.endsWith('/products')).map((r) => r.path))])
      .toEqual(['/api/v2/deals', '/api/v2/deals/archived']);
  });

  it('deals come from two lists, so the deals stream is not sorted as a whole: its cursor moves at the read\'s end', () => {
    const streams = connector.streams(typedSettings(connector, pipedrive.settings('http://127.0.0.1:1')));
    expect(streams.find((st) => st.name === 'deals')).toEqual({ name: 'deals', incremental: true, sorted: false });
    expect(streams.find((st) => st.name === 'clients')).toEqual({ name: 'clients', incremental: true, sorted: true });
  });

  it('a deal archived after a sync is read again, by the next incremental read, with its state (the archiving moved update_time)', async () => {
    const fixture = pipedrive.createCrm();
    const server = await startCrmServer(fixture.handler);
    try {
      const since = new Date(Date.now() - 1000);
      fixture.archiveDeal('1003');
      const { records } = await readAll(connector, 'deals', pipedrive.settings(server.url), { since, until: new Date(Date.now() + 1000) });
      expect(records.map((r) => [r.id, (r as { status?: string }).status])).toEqual([['1003', '2']]);
    } finally {
      await server.close();
    }
  });

  it('sends the token in the x-api-token header, never in the URL', async () => {
    crm.requests.length = 0;
    await readAll(connector, 'clients', pipedrive.settings(crm.url));
    expect(crm.requests.length).toBeGreaterThan(2);
    for (const request of crm.requests) {
      expect({ path: request.path, header: request.headers['x-api-token'], query: request.query.get('api_token') })
        .toEqual({ path: request.path, header: pipedrive.TOKEN, query: null });
    }
  });

  it('fetches the organizations of a page of persons in one v2 request, by ids', async () => {
    crm.requests.length = 0;
    await readAll(connector, 'clients', pipedrive.settings(crm.url));
    const organizations = crm.requests.filter((r) => r.path === '/api/v2/organizations');
    expect(organizations.map((r) => r.query.get('ids'))).toEqual(['401']);
  });

  it.each([
    ['the v1 preset\'s company form', (url: string) => `${url}/api`],
    ['the account root', (url: string) => url],
    ['an explicit v1 root', (url: string) => `${url}/api/v1/`],
    ['the v1 root of api.pipedrive.com', (url: string) => `${url}/v1`],
  ])('a base_url written as %s still reads (every version under /api)', async (_form, baseUrl) => {
    const settings = { ...pipedrive.settings(crm.url), base_url: baseUrl(crm.url) };
    crm.requests.length = 0;
    const { records } = await readAll(connector, 'managers', settings);
    expect(records).toEqual(pipedrive.expected.managers);
    expect(crm.requests.map((r) => r.path)).toEqual(['/api/v1/users']);
  });

  it('the fixture answers 404 to the v1 routes v2 replaced', async () => {
    for (const [method, path] of [['GET', '/api/v1/deals'], ['GET', '/api/v1/persons'], ['PUT', '/api/v1/deals/1001']]) {
      const answer = await fetch(`${crm.url}${path}`, { method, headers: { 'x-api-token': pipedrive.TOKEN, 'content-type': 'application/json' }, body: method === 'PUT' ? '{}' : undefined });
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
    }
    const violations = crm.takeViolations();
    expect(violations.map((v) => `${v.part} ${v.route}`)).toEqual(['route GET /api/v1/deals', 'route GET /api/v1/persons', 'route PUT /api/v1/deals/1001']);
  });

  it('waits for Retry-After on a 429 burst answer, then goes on', async () => {
    const burst = await startCrmServer(pipedrive.createHandler({ burstLimitOnce: true }));
    try {
      const started = Date.now();
      const { records } = await readAll(connector, 'deals', pipedrive.settings(burst.url), { connectionId: 'pd-burst' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(records).toEqual(pipedrive.expected.deals);
    } finally {
      await burst.close();
    }
  });

  it('custom field keys written for the v1 preset still name the same fields (visit_field by its 40-hex key)', async () => {
    const settings = { ...pipedrive.settings(crm.url), visit_field: pipedrive.FIELD_KEYS.tracker };
    const { records } = await readAll(connector, 'deals', settings);
    expect(records.map((r) => [r.id, (r as { visit_id?: string | null }).visit_id])).toEqual([['1001', '777001'], ['1002', null], ['1003', '777003'], ['1004', null]]);
  });

  it('reads the products of a page of deals in one /v2/deals/products request (deal_ids), their catalog by ids, and each deal\'s flow', async () => {
    crm.requests.length = 0;
    await readAll(connector, 'deals', pipedrive.settings(crm.url));
    const sent = crm.requests.filter((r) => !['/api/v2/deals', '/api/v2/deals/archived', '/api/v2/dealFields'].includes(r.path));
    const pages = crm.requests.filter((r) => r.path === '/api/v2/deals').length;
    expect(pages).toBe(2); // the fixture's pages of 2, then one page of archived deals
    // one string of comma-joined ids (the live API refuses deal_ids=1001&deal_ids=1002 with 400)
    expect(sent.filter((r) => r.path === '/api/v2/deals/products').map((r) => r.query.getAll('deal_ids'))).toEqual([['1001,1002'], ['1003'], ['1004']]);
    expect(sent.filter((r) => r.path === '/api/v2/products').map((r) => r.query.get('ids'))).toEqual(['2001,2002,2004', '2003']);
    expect(sent.filter((r) => r.path === '/api/v2/productFields')).toHaveLength(2);
    // v2 has no change log of a deal: one v1 flow request per deal, changes only
    const flows = sent.filter((r) => /^\/api\/v1\/deals\/\d+\/flow$/.test(r.path));
    expect(flows.map((r) => [r.path, r.query.get('items')])).toEqual([
      ['/api/v1/deals/1001/flow', 'dealChange'], ['/api/v1/deals/1002/flow', 'dealChange'], ['/api/v1/deals/1003/flow', 'dealChange'],
      ['/api/v1/deals/1004/flow', 'dealChange'],
    ]);
    expect(sent.length).toBe(3 + 2 + 2 + 4); // 1004 has no products: no catalog request for its page
  });

  it('sends at most 100 deal ids a /v2/deals/products request, comma-joined, and the fixture refuses the repeated form as the live API does', async () => {
    const many = pipedrive.createCrm({ moreDeals: 230, pageSize: 500 });
    const server = await startCrmServer(many.handler);
    try {
      await readAll(connector, 'deals', { ...pipedrive.settings(server.url), history: false }, { connectionId: 'pd-many' });
      const batches = server.requests.filter((r) => r.path === '/api/v2/deals/products').map((r) => r.query.getAll('deal_ids'));
      expect(batches.map((b) => [b.length, b[0].split(',').length])).toEqual([[1, 100], [1, 100], [1, 33], [1, 1]]);
      const repeated = await fetch(`${server.url}/api/v2/deals/products?deal_ids=1001&deal_ids=1003`, { headers: { 'x-api-token': pipedrive.TOKEN } });
      expect({ status: repeated.status, body: await repeated.json() }).toMatchObject({ status: 400, body: { success: false, error: 'querystring/deal_ids must be string' } });
      expect(server.takeViolations()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('`products: false` and `history: false` ask for neither', async () => {
    crm.requests.length = 0;
    const { records } = await readAll(connector, 'deals', { ...pipedrive.settings(crm.url), products: false, history: false });
    expect(records).toEqual(pipedrive.expected.deals.map(({ products: _p, history: _h, ...deal }) => deal));
    expect([...new Set(crm.requests.map((r) => r.path))].sort()).toEqual(['/api/v2/dealFields', '/api/v2/deals', '/api/v2/deals/archived']);
  });

  it('a won or lost deal whose flow records no status change (created with its close time) was open until then: no entry claims its status, closed_at dates the move', async () => {
    const at = (iso: string) => new Date(iso);
    const read = async (options: pipedrive.PipedriveOptions) => {
      const server = await startCrmServer(pipedrive.createCrm(options).handler);
      try {
        const { records } = await readAll(connector, 'deals', pipedrive.settings(server.url));
        return new Map(records.map((r) => [r.id, r as Deal]));
      } finally {
        await server.close();
      }
    };
    // created open, won / lost later: the creation is in the deal's stage (status '0'), not in won / lost
    const later = await read({ imported: [1002, 1003] });
    expect(later.get('1002')).toMatchObject({ status: '1', closed_at: at('2024-01-15T11:30:00Z'), history: [{ date: at('2024-01-15T06:00:00Z'), status: '0', price: 0, cost: null }] });
    expect(later.get('1003')).toMatchObject({ status: '2', closed_at: at('2024-01-16T08:00:00Z'), history: [{ date: at('2024-01-16T07:59:59Z'), status: '0', price: 150.75, cost: null }] });
    // what the service gets: the move into won at won_time
    expect(dealToAddOrder(later.get('1002')!).history).toEqual([
      { date: '2024-01-15 06:00:00+0000', status: '0', price: 0, cost: null },
      { date: '2024-01-15 11:30:00+0000', status: '1', price: 0 },
    ]);
    // created by an import after it was won (addDeal takes no add_time): no history, the move is at won_time
    const imported = await read({ imported: [1004], importedAt: '2024-02-01T00:00:00Z' });
    expect(imported.get('1004')).toMatchObject({ status: '1', created_at: at('2024-02-01T00:00:00Z'), closed_at: at('2024-01-13T09:00:00Z') });
    expect(imported.get('1004')!.history).toBeUndefined();
    expect(dealToAddOrder(imported.get('1004')!).history).toEqual([{ date: '2024-01-13 09:00:00+0000', status: '1', price: 900 }]);
    // an open deal's flow without changes: its creation in its stage, as before, and no closed_at
    const open = await read({ imported: [1001] });
    expect(open.get('1001')).toMatchObject({ status: '0', history: [{ date: at('2024-01-14T08:00:00Z'), status: '0', price: 4200, cost: null }] });
    expect(open.get('1001')!.closed_at).toBeUndefined();
  });

  it('a token that may not see products (403): the deals go with their history, products left out with one warning', async () => {
    const refusing = await startCrmServer(pipedrive.createHandler({ refuseProducts: true, pageSize: 1 }));
    try {
      const { records, logs } = await readAll(connector, 'deals', pipedrive.settings(refusing.url), { connectionId: 'pd-no-products' });
      expect(records).toEqual(pipedrive.expected.deals.map(({ products: _p, ...deal }) => deal));
      const warnings = logs.filter((line) => line.includes(' left out: '));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/products left out: enrichment deal_products was refused \(GET \/v2\/deals\/products answered HTTP 403.*products:read/);
      // refused once: the later pages do not ask again
      expect(refusing.requests.filter((r) => r.path === '/api/v2/deals/products')).toHaveLength(1);
    } finally {
      await refusing.close();
    }
  });

  it('a deal-product without a catalog product takes its row id (the document types product_id as an integer: the one violation taken)', async () => {
    const base = pipedrive.createHandler();
    const server = await startCrmServer((request, state) => {
      const answer = base(request, state);
      if (request.path !== '/api/v2/deals/products') return answer;
      const body = answer.body as { data: { id: number; product_id: number | null }[] };
      return { ...answer, body: { ...body, data: body.data.map((row) => (row.id === 52 ? { ...row, product_id: null } : row)) } };
    });
    try {
      const { records } = await readAll(connector, 'deals', pipedrive.settings(server.url));
      const products = (records.find((r) => r.id === '1001') as { products: { id: string; name: string; categories: string[] }[] }).products;
      expect(products.map((p) => [p.id, p.name, p.categories])).toEqual([['2001', 'Design package', ['Services']], ['52', 'Hosting, monthly', []]]);
      expect(server.takeViolations().map((v) => `${v.operationId} ${v.path} ${v.keyword}`)).toEqual(['getDealsProducts $.data[1].product_id type']);
    } finally {
      await server.close();
    }
  });

  it('keeps settings written for the v1 preset valid', () => {
    expect(() => typedSettings(connector, { preset: 'pipedrive', base_url: 'https://acme.pipedrive.com/api', token: 't', visit_field: 'tracker' })).not.toThrow();
  });
});
