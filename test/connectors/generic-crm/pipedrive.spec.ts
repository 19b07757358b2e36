import connector from '../../../connectors/generic-crm';
import { releaseSourceLimits } from '../../../connectors/generic-crm/http/source-limits';
import { CrmServer, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../../fixtures/crm/pipedrive';
import { readAll, typedSettings } from '../read-helper';

describe('generic-crm preset pipedrive (API v2; v1 for users)', () => {
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(pipedrive.handler)));
  afterAll(async () => {
    await crm.close();
    releaseSourceLimits();
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
    expect(records.map((r) => r.id)).toEqual(['1001', '1002']);
    const lists = crm.requests.filter((r) => r.path === '/api/v2/deals');
    expect(lists.map((r) => Object.fromEntries(r.query))).toEqual([
      { updated_since: '2024-01-15T10:00:00Z', sort_by: 'update_time', sort_direction: 'asc', limit: '500' },
      { updated_since: '2024-01-15T10:00:00Z', sort_by: 'update_time', sort_direction: 'asc', limit: '500', cursor: expect.any(String) },
    ]);
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
    expect(records.map((r) => [r.id, (r as { visit_id?: string | null }).visit_id])).toEqual([['1001', '777001'], ['1002', null], ['1003', '777003']]);
  });

  it('keeps settings written for the v1 preset valid', () => {
    expect(() => typedSettings(connector, { preset: 'pipedrive', base_url: 'https://acme.pipedrive.com/api', token: 't', visit_field: 'tracker' })).not.toThrow();
  });
});
