import connector from '../../../connectors/generic-crm';
import { checkFlows } from '../../../src/engine/outbound/flows/flow-checks';
import { writeBackFlow } from '../../../src/engine/outbound/flows/write-back/write-back.flow';
import { writeDeals } from '../../support/write-back-pass';
import { GenericCrmSettings } from '../../../connectors/generic-crm/settings';
import type { DealWrite, WriteOutcome } from '../../../src/connectors/connector-definition';
import { settingsProblems, toSettingsInstance } from '../../../src/connectors/settings-validation';
import { CrmServer, FixtureAnswer, FixtureRequest, startCrmServer } from '../../fixtures/crm/crm-fixture-server';

/** Write-back through the generic CRM's actions (write_back.request, field_list) against a loopback CRM: settings checks, field resolution, outcomes per deal. */

const TOKEN = 'write-token-1';
const FIELDS = { data: [{ key: 'abc', name: 'Ad source' }, { key: 'def', name: 'City' }] };

function handler(request: FixtureRequest): FixtureAnswer {
  if (request.headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { error: 'invalid_token' } };
  if (request.path === '/deals') return { body: { items: [] } };
  if (request.path === '/fields') return { body: FIELDS };
  if (request.method === 'PUT' && request.path === '/deals/13') return { status: 422, body: { error: 'invalid_stage', error_description: 'stage is closed' } };
  if (request.method === 'PUT' && request.path === '/deals/15') return { status: 409, raw: 'locked by another user' };
  if (request.method === 'PUT' && request.path === '/deals/14') return { status: 503, body: { error: 'down' } };
  // one record's refusal (an archived deal) and the token's (a scope it lacks): both 403
  if (request.method === 'PUT' && request.path === '/deals/16') return { status: 403, body: { error: 'forbidden', error_description: 'Archived deal cannot be updated' } };
  if (request.method === 'PUT' && request.path === '/deals/17') return { status: 403, body: { error: 'insufficient_scope', error_description: 'The token lacks the scope deals:full' } };
  if (request.method === 'PUT') return { body: { ok: true } };
  return { status: 404, body: { error: 'no route' } };
}

const raw = (baseUrl: string, writeBack: Record<string, unknown>, token = TOKEN) => ({
  base_url: baseUrl,
  token,
  auth: { type: 'bearer' },
  retry: { max_attempts: 1 },
  streams: { deals: { request: { path: '/deals' }, records: 'items', mapping: { id: 'id', created_at: 'created' } } },
  write_back: {
    request: { method: 'PUT', path: '/deals/{{id}}', body: '{{values}}' },
    field_list: { request: { path: '/fields' }, records: 'data', key: 'key', name: 'name' },
    ...writeBack,
  },
});
const settingsOf = (value: object) => toSettingsInstance(GenericCrmSettings, value);
const quiet = { log: () => {}, warn: () => {} };

async function collect(iterable: AsyncIterable<WriteOutcome[]>): Promise<WriteOutcome[][]> {
  const batches: WriteOutcome[][] = [];
  for await (const batch of iterable) batches.push(batch);
  return batches;
}

describe('generic-crm write-back', () => {
  let crm: CrmServer;
  beforeAll(async () => {
    crm = await startCrmServer(handler);
  });
  afterAll(async () => {
    await crm.close();
  });

  it('refuses an unknown attribution value at config load, naming the key', () => {
    const problems = settingsProblems(GenericCrmSettings, raw(crm.url, { fields: { channel: 'Ad source', utm_campain: 'x' } }), 'connections[0].settings');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('connections[0].settings.write_back.fields');
    expect(problems[0]).toContain('unknown value "utm_campain"');
    expect(settingsProblems(GenericCrmSettings, raw(crm.url, { fields: { city: 'City' }, schedule: '61 * * * *' }), 's')[0]).toContain('s.write_back.schedule');
    expect(settingsProblems(GenericCrmSettings, raw(crm.url, { fields: { city: 'City' }, since_days: 0 }), 's')[0]).toContain('s.write_back.since_days');
  });

  it('plans the configured fields, 30 days back by default, no schedule of its own', () => {
    expect(writeBackFlow.planOf(connector, settingsOf(raw(crm.url, { fields: { channel: 'Ad source', city: 583921 } })))).toEqual({
      fields: { channel: 'Ad source', city: '583921' }, sinceDays: 30, schedule: undefined, visitField: 'tracker',
    });
    expect(writeBackFlow.planOf(connector, settingsOf({ ...raw(crm.url, {}), write_back: undefined }))).toBeNull();
  });

  it('check resolves the fields against the CRM\'s field list, and names the key of one it does not have', async () => {
    const ok = await checkFlows(connector, settingsOf(raw(crm.url, { fields: { channel: 'ad SOURCE', city: 'def' } })), { connectionId: 'c', settings: {} as never, logger: quiet });
    expect(ok).toEqual({ ok: true, message: expect.stringContaining('write_back: channel → abc, city → def') });
    const bad = await checkFlows(connector, settingsOf(raw(crm.url, { fields: { channel: 'Ad source', city: 'Town' } })), { connectionId: 'c', settings: {} as never, logger: quiet });
    expect(bad.ok).toBe(false);
    expect(bad.message).toContain('write_back.fields.city: the CRM has no deal field "Town" (its fields: Ad source (abc), City (def))');
  });

  it('writes by field key; a refused deal is a rejected outcome with the CRM\'s reason, the others are written', async () => {
    const settings = settingsOf(raw(crm.url, { fields: { channel: 'Ad source' } }));
    const deals: DealWrite[] = [{ id: '12', values: { channel: 'Ads / Search' } }, { id: '13', values: { channel: 'SEO' } }, { id: '15', values: { channel: 'SEO' } }];
    const before = crm.requests.length;
    const batches = await collect(writeDeals(connector, deals, { connectionId: 'c', settings, logger: quiet }));
    expect(batches).toEqual([
      [{ id: '12', status: 'written' }],
      [{ id: '13', status: 'rejected', reason: 'HTTP 422: stage is closed' }], // the message where the source's `errors` rules say
      [{ id: '15', status: 'rejected', reason: expect.stringContaining('HTTP 409: locked by another user') }], // else the answer itself
    ]);
    const puts = crm.requests.slice(before).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.path, r.body])).toEqual([['/deals/12', { abc: 'Ads / Search' }], ['/deals/13', { abc: 'SEO' }], ['/deals/15', { abc: 'SEO' }]]);
  });

  it('a 403 refusing one deal\'s write is that deal\'s rejection with the CRM\'s reason; a 403 naming the token fails the pass', async () => {
    const settings = settingsOf(raw(crm.url, { fields: { channel: 'Ad source' } }));
    const deals: DealWrite[] = [{ id: '16', values: { channel: 'SEO' } }, { id: '12', values: { channel: 'SEO' } }];
    const batches = await collect(writeDeals(connector, deals, { connectionId: 'c', settings, logger: quiet }));
    expect(batches).toEqual([
      [{ id: '16', status: 'rejected', reason: 'HTTP 403: Archived deal cannot be updated' }],
      [{ id: '12', status: 'written' }],
    ]);
    await expect(collect(writeDeals(connector, [{ id: '17', values: { channel: 'SEO' } }], { connectionId: 'c', settings, logger: quiet }))).rejects.toThrow(
      /the CRM refused the connection's credentials \(settings\.token \/ settings\.auth\): HTTP 403: .*insufficient_scope/,
    );
  });

  it('fails the pass on a refused token, a CRM that is down, or a field the CRM does not have (naming the key)', async () => {
    const deal: DealWrite[] = [{ id: '12', values: { channel: 'x' } }];
    const refused = settingsOf(raw(crm.url, { fields: { channel: 'Ad source' } }, 'revoked'));
    await expect(collect(writeDeals(connector, deal, { connectionId: 'c', settings: refused, logger: quiet }))).rejects.toThrow(
      "the CRM refused the connection's credentials",
    );
    const down = settingsOf(raw(crm.url, { fields: { channel: 'Ad source' } }));
    await expect(collect(writeDeals(connector, [{ id: '14', values: { channel: 'x' } }], { connectionId: 'c', settings: down, logger: quiet }))).rejects.toThrow('HTTP 503');
    const visit = settingsOf({ ...raw(crm.url, { fields: { visit_id: 'Visit number' } }), visit_field: 'visit number' });
    await expect(collect(writeDeals(connector, deal, { connectionId: 'c', settings: visit, logger: quiet }))).rejects.toThrow(
      'write_back.fields.visit_id: "Visit number" is the visit_field: writing into it would change the visit number the deals are sent with',
    );
    const unknown = settingsOf(raw(crm.url, { fields: { channel: 'Source' } }));
    await expect(collect(writeDeals(connector, deal, { connectionId: 'c', settings: unknown, logger: quiet }))).rejects.toThrow(
      'write_back.fields.channel: the CRM has no deal field "Source"',
    );
  });

  it('leaves the written fields out of the deals\' custom fields', async () => {
    const crmWithFields = await startCrmServer((request) =>
      request.path === '/deals'
        ? { body: { items: [{ id: 1, created: '2025-03-01T10:00:00Z', f: { abc: 'old source', def: 'Moscow', xyz: 'kept' } }] } }
        : { body: FIELDS },
    );
    try {
      const value = raw(crmWithFields.url, { fields: { channel: 'ad source' } });
      value.streams.deals = { ...value.streams.deals, custom_fields: { kind: 'keys', path: 'f', labels: { request: { path: '/fields' }, records: 'data', key: 'key', name: 'name' } } } as never;
      const pages = connector.read('deals', { since: null, until: new Date() }, { connectionId: 'c2', settings: settingsOf(value), logger: quiet, state: null });
      const records = [];
      for await (const page of pages) records.push(...page.records);
      expect((records[0] as { custom_fields: unknown }).custom_fields).toEqual({ City: 'Moscow', xyz: 'kept' });
    } finally {
      await crmWithFields.close();
    }
  });
});
