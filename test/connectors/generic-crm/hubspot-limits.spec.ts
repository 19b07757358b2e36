import { monitorEventLoopDelay } from 'node:perf_hooks';
import connector from '../../../connectors/generic-crm';
import { WINDOW_MARGIN_MS } from '../../../src/http/rate-spacing';
import { startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import * as hubspot from '../../fixtures/crm/hubspot';
import { readAll, typedSettings } from '../read-helper';

/**
 * HubSpot's documented limits, held by the preset (test/fixtures/crm/specs/hubspot/BEHAVIOURS.md): search's own
 * limit of 4 requests a second per token, the daily quota's 429, owners in pages, associations with `paging`.
 * The test settings lift the general limit (rate_limit 1000/s), so only the preset's search limiter spaces searches.
 */
describe('generic-crm preset hubspot: the limits HubSpot documents', () => {
  const deal = (id: number, contacts: number[] = [], lineItems: hubspot.LineItem[] = []): hubspot.HubspotObject => ({
    id: String(id), contacts, lineItems,
    properties: {
      dealname: `D${id}`, amount: '1', dealstage: 'closedwon', pipeline: 'default', createdate: '2024-02-01T10:00:00.000Z',
      hs_lastmodifieddate: new Date(Date.parse('2024-02-01T10:00:00Z') + id * 1000).toISOString(),
    },
  });

  it('spaces search requests to 4 a second per token: 13 searches of deals, no 429 from search', async () => {
    const crm = hubspot.createCrm({ deals: [], moreDeals: 14, pageSize: 2 });
    const server = await startCrmServer(crm.handler);
    try {
      const settings = { ...hubspot.settings(server.url), products: false, history: false };
      // the fixture stamps arrivals on this process's event loop: a stall longer than the limiter's margin (a busy
      // CI machine) stamps one search late while the next leaves on time, which no limiter can prevent
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      stalls.enable();
      const { records } = await readAll(connector, 'deals', settings);
      stalls.disable();
      expect(records).toHaveLength(14);
      const at = crm.limits.searchesAt;
      // pages of 2: the first, then each search from the last deal's modification time (reslice_each_page), which
      // holds that deal again and one more
      expect(at.length).toBeGreaterThanOrEqual(13);
      if (stalls.max / 1e6 <= WINDOW_MARGIN_MS) {
        expect(crm.limits.searchRateLimited).toBe(0);
        expect(at).toHaveLength(13);
        // any five searches in a row span more than a second
        for (let i = 4; i < at.length; i++) expect(at[i] - at[i - 4]).toBeGreaterThan(1000);
      }
    } finally {
      await server.close();
    }
  });

  it('a 429 of the daily limit (policyName DAILY) fails the read at once, saying so, without retrying', async () => {
    const crm = hubspot.createCrm({ dailyLimit: 0 });
    const server = await startCrmServer(crm.handler);
    try {
      const started = Date.now();
      await expect(readAll(connector, 'managers', hubspot.settings(server.url))).rejects.toThrow(
        /GET http.*\/crm\/v3\/owners.*the CRM's daily request limit is spent: the run stops without retrying.*HTTP 429.*You have reached your daily limit/,
      );
      expect(server.requests).toHaveLength(1);
      expect(crm.limits.dailyLimited).toBe(1);
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      await server.close();
    }
  });

  it('a 429 of the secondly limit is still retried (a search limit of 0 refuses every search)', async () => {
    const crm = hubspot.createCrm({ searchPerSecond: 0 });
    const server = await startCrmServer(crm.handler);
    try {
      const settings = { ...hubspot.settings(server.url), retry: { max_attempts: 3, base_ms: 10 } };
      await expect(readAll(connector, 'clients', settings)).rejects.toThrow(/HTTP 429 \(gave up after 3 attempts\).*You have reached your secondly limit/);
      expect(crm.limits.searchRateLimited).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('reads owners in pages of 500: a team of 603 owners, the last one included', async () => {
    const crm = hubspot.createCrm({ moreOwners: 600 });
    const server = await startCrmServer(crm.handler);
    try {
      const { records } = await readAll(connector, 'managers', hubspot.settings(server.url));
      expect(records).toHaveLength(603);
      const settings = typedSettings(connector, hubspot.settings(server.url));
      const catalog = await connector.catalog!(settings, { connectionId: 'hs', settings, logger: { log: () => undefined, warn: () => undefined } });
      expect(catalog.users).toHaveLength(603);
      expect(catalog.users?.at(-1)).toMatchObject({ id: '1600', name: 'Last Owner' });
      expect(server.requests.filter((r) => r.path === '/crm/v3/owners').map((r) => r.query.get('limit'))).toEqual(['500', '500', '500', '500']);
    } finally {
      await server.close();
    }
  });

  it('follows each deal\'s association `paging`: every contact link and line item of a deal with more than one page', async () => {
    const item = (id: number): hubspot.LineItem => ({ id: String(id), properties: { name: `I${id}`, price: '10', quantity: '1', amount: '10', hs_product_id: null } });
    const crm = hubspot.createCrm({ deals: [deal(1, [501, 502, 503], [item(71), item(72), item(73)]), deal(2, [502])], associationPage: 2 });
    const server = await startCrmServer(crm.handler);
    try {
      const { records } = await readAll(connector, 'deals', { ...hubspot.settings(server.url), history: false });
      const first = records.find((r) => r.id === '1') as { products?: { id: string }[]; client_id?: string };
      expect(first.products?.map((p) => p.id)).toEqual(['71', '72', '73']);
      expect(first.client_id).toBe('501');
      const links = server.requests.filter((r) => r.path === '/crm/v4/associations/deals/line_items/batch/read').map((r) => r.body.inputs);
      expect(links).toEqual([[{ id: '1' }, { id: '2' }], [{ id: '1', after: '2' }]]);
      const contacts = server.requests.filter((r) => r.path === '/crm/v4/associations/deals/contacts/batch/read').map((r) => r.body.inputs);
      expect(contacts).toEqual([[{ id: '1' }, { id: '2' }], [{ id: '1', after: '2' }]]);
    } finally {
      await server.close();
    }
  });
});
