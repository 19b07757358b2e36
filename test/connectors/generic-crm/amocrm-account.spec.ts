import connector from '../../../connectors/generic-crm';
import { checkConnection } from '../../../src/engine/outbound/flows/flow-checks';
import * as amocrm from '../../fixtures/crm/amocrm';
import { CrmServer, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll, typedSettings } from '../read-helper';

/**
 * amoCRM accounts as they are (test/fixtures/crm/specs/amocrm/BEHAVIOURS.md): more than 50 deal fields (answered
 * 50 a page), a token of a user who is no administrator (403 on /api/v4/users).
 */
const quiet = { log: () => {}, warn: () => {} };

async function check(plain: Record<string, unknown>) {
  const settings = typedSettings(connector, plain);
  return checkConnection(connector, settings, { connectionId: 'amo', settings, logger: quiet });
}

describe('amoCRM: an account with more than 50 deal fields', () => {
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(amocrm.createCrm({ extraFields: 60 }).handler)));
  afterAll(() => crm.close());

  const settings = () => ({
    ...amocrm.settings(crm.url),
    write_back: { fields: { utm_campaign: 'UTM campaign', utm_source: 405 } },
    lead_delivery: { lead_id_field: 'ID заявки', fields: { 'Комментарий': '{{comment}}' } },
  });

  it('check finds the visit field, the write-back fields and lead_id_field on the second page of fields', async () => {
    crm.requests.length = 0;
    const result = await check(settings());
    expect(result).toMatchObject({ ok: true });
    expect(result.message).toContain('write_back: utm_campaign → 404, utm_source → 405');
    expect(result.message).toContain('lead_id_field 407');
    expect(JSON.stringify(result.warnings ?? [])).not.toMatch(/visit_field/);
    const fieldPages = crm.requests.filter((r) => r.path === '/api/v4/leads/custom_fields');
    // write-back, lead delivery and discovery each read both pages
    expect(fieldPages.map((r) => r.query.get('page') ?? '1').sort()).toEqual(['1', '1', '1', '2', '2', '2']);
  });

  it('discovery lists every deal field', async () => {
    const plain = typedSettings(connector, amocrm.settings(crm.url));
    const catalog = await connector.catalog!(plain, { connectionId: 'amo', settings: plain, logger: quiet });
    expect(catalog.deal_fields).toHaveLength(60 + amocrm.leadFields.length);
    expect(catalog.deal_fields.map((f) => f.name)).toContain('tracker');
  });

  it('check does not call a visit field on the second page "not a deal field"', async () => {
    const result = await check(amocrm.settings(crm.url));
    expect(result).toMatchObject({ ok: true });
    expect(result.warnings).toBeUndefined();
  });

  it('a visit field the CRM really lacks is still named', async () => {
    const result = await check({ ...amocrm.settings(crm.url), visit_field: 'Нет такого' });
    expect(result.warnings).toEqual([expect.stringMatching(/^visit_field "Нет такого" is not a deal field of the CRM/)]);
  });
});

describe('amoCRM: reads', () => {
  it('reads the deals of a big account as before', async () => {
    const crm = await startCrmServer(amocrm.createCrm({ extraFields: 60 }).handler);
    try {
      const { records } = await readAll(connector, 'deals', amocrm.settings(crm.url));
      expect(records).toEqual(amocrm.expected.deals);
    } finally {
      await crm.close();
    }
  });
});

describe('amoCRM: a token of a user who is no administrator (403 on /api/v4/users)', () => {
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(amocrm.createCrm({ notAdmin: true }).handler)));
  afterAll(() => crm.close());

  it('leaves the managers out with one notice naming the right, and the deals keep responsible_user_id', async () => {
    const managers = await readAll(connector, 'managers', amocrm.settings(crm.url));
    expect(managers.records).toEqual([]);
    const warnings = managers.logs.filter((l) => l.startsWith('WARN'));
    expect(warnings).toEqual([expect.stringMatching(/managers left out: GET \/api\/v4\/users answered HTTP 403: .*only to an account administrator/)]);
    expect(warnings[0]).not.toMatch(/credentials/);
    const deals = await readAll(connector, 'deals', amocrm.settings(crm.url));
    expect(deals.records).toEqual(amocrm.expected.deals);
  });

  it('check says the same and proves the token with the next stream', async () => {
    const result = await check(amocrm.settings(crm.url));
    expect(result.ok).toBe(true);
    expect(result.message).toMatch(/answered the clients request; managers left out: GET \/api\/v4\/users answered HTTP 403: .*administrator/);
    expect(result.message).not.toMatch(/credentials/);
    expect(JSON.stringify(result.warnings ?? [])).not.toMatch(/could not be listed/);
  });
});

describe('amoCRM: OAuth2 refresh sends the integration redirect URI', () => {
  const integration = { client_id: 'amo-client', client_secret: 'amo-secret-1', redirect_uri: 'https://tracker.example/amo/callback', refresh_token: 'amo-refresh-1' };
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(amocrm.createCrm({ oauth: integration }).handler)));
  afterAll(() => crm.close());
  const withAuth = (auth: Record<string, unknown>) => {
    const { token: _token, ...rest } = amocrm.settings(crm.url);
    return { ...rest, auth: { type: 'oauth2', token_url: '/oauth2/access_token', ...auth } };
  };

  it('is required for amoCRM OAuth2, named at load', () => {
    const { redirect_uri: _uri, ...without } = integration;
    expect(() => typedSettings(connector, withAuth(without))).toThrow(/settings\.auth: needs redirect_uri with type oauth2/);
  });

  it('goes with the refresh, and the deals are read', async () => {
    crm.requests.length = 0;
    const { records } = await readAll(connector, 'deals', withAuth(integration));
    expect(records.map((r) => r.id)).toEqual(['7001', '7002', '7003', '7004']);
    const grants = crm.requests.filter((r) => r.path === '/oauth2/access_token').map((r) => r.body);
    expect(grants).toEqual([{ grant_type: 'refresh_token', ...integration }]);
  });

  it('a refused refresh names the setting, and never a secret', async () => {
    const failing = readAll(connector, 'deals', withAuth({ ...integration, redirect_uri: 'https://tracker.example/other' }));
    const error: Error = await failing.then(() => new Error('no error'), (e: Error) => e);
    expect(error.message).toMatch(/OAuth2 token request to .*\/oauth2\/access_token failed: HTTP 400 .*settings\.auth refresh_token, client_id, client_secret, redirect_uri: each must be the integration's, redirect_uri exactly as in its settings/);
    expect(error.message).not.toMatch(/amo-secret-1|amo-refresh-1/);
  });
});

describe('amoCRM: an address blocked after too many requests', () => {
  it('names the 403 that follows a 429 as a rate block with the wait, not as refused credentials', async () => {
    const crm = await startCrmServer(amocrm.createCrm({ moreDeals: 30, rateBlock: { blockMs: 5000 } }).handler);
    try {
      // a connection that ignores amoCRM's 7 requests a second (the preset's own limit keeps under it)
      const plain = { ...amocrm.settings(crm.url), retry: { base_ms: 10, max_ms: 20 } };
      const error: Error = await readAll(connector, 'deals', plain).then(() => new Error('no error'), (e: Error) => e);
      expect(crm.requests.some((r) => r.path === '/api/v4/leads')).toBe(true);
      expect(error.message).toMatch(/rate block: the CRM blocked the address after too many requests \(HTTP 429 0 s before\) \(amoCRM blocks an address that exceeds 7 requests a second\); wait 60 s before the next run\. Not the credentials: HTTP 403/);
      expect(error.message).not.toMatch(/refused the connection's credentials/);
    } finally {
      await crm.close();
    }
  });
});

describe('amoCRM: lead delivery with a token of no administrator', () => {
  it('names the missing right of lead_delivery.responsible, not the credentials', async () => {
    const crm = await startCrmServer(amocrm.createCrm({ notAdmin: true }).handler);
    try {
      const result = await check({ ...amocrm.settings(crm.url), lead_delivery: { lead_id_field: 'ID заявки', responsible: 502 } });
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/lead_delivery\.responsible: the CRM refused to list its users to this token \(.*\/api\/v4\/users.*: HTTP 403\): its user lacks the right to list users/);
      expect(result.message).not.toMatch(/refused the connection's credentials/);
      const without = await check({ ...amocrm.settings(crm.url), lead_delivery: { lead_id_field: 'ID заявки' } });
      expect(without).toMatchObject({ ok: true });
    } finally {
      await crm.close();
    }
  });
});
