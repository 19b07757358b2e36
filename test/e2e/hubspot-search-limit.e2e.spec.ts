import * as hubspot from '../fixtures/crm/hubspot';
import { startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { generatedDeals } from '../fixtures/crm/crm-writes';
import { E2eSync } from './e2e-harness';
import { allClients, allOrders } from './sandbox-readback';

/**
 * "A HubSpot portal that hits its search limit gets every deal into the service", tried as a new user: the
 * connection as the README's preset table has it (preset, base_url, token, status_map: the preset's own limits),
 * a portal of 200 deals and 103 contacts read 20 a page, so search is used page after page (the clients' search
 * alone, without enrichments in between, would go 10 a second at the general limit). The fixture holds HubSpot's
 * search limit (4 a second per token) and counts each 429 it answers: none may be needed.
 */
describe('e2e: HubSpot search limit → engine → sandbox', () => {
  it('every deal and contact arrives, and HubSpot never had to answer 429', async () => {
    const crm = hubspot.createCrm({ deals: [], moreDeals: 200, richDeals: true, moreContacts: 100, pageSize: 20 });
    const server = await startCrmServer(crm.handler);
    const { rate_limit: _lifted, ...asUserWrites } = hubspot.settings(server.url);
    const e2e = await E2eSync.start({ connectionId: 'hubspot', connector: 'generic-crm', settings: asUserWrites });
    try {
      await e2e.registerVisits(generatedDeals(200).map((d) => d.visitId).filter((v): v is string => !!v));
      const run = await e2e.run();
      expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
      expect((await allOrders(e2e.tracker)).length).toBe(200);
      expect((await allClients(e2e.tracker)).length).toBe(103);
      expect({ searchRateLimited: crm.limits.searchRateLimited, dailyLimited: crm.limits.dailyLimited }).toEqual({ searchRateLimited: 0, dailyLimited: 0 });
      // search was used page after page: 5 pages of contacts, 10 of deals
      const searches = server.requests.filter((r) => r.path.endsWith('/search')).length;
      expect(searches).toBeGreaterThanOrEqual(15);
    } finally {
      await e2e.stop();
      await server.close();
    }
  });

  it('a portal whose daily limit is spent mid-run: the run fails at once, saying so, after one 429', async () => {
    const crm = hubspot.createCrm({ dailyLimit: 3 });
    const server = await startCrmServer(crm.handler);
    const e2e = await E2eSync.start({ connectionId: 'hubspot-daily', connector: 'generic-crm', settings: hubspot.settings(server.url) });
    try {
      const started = Date.now();
      const run = await e2e.run();
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/the CRM's daily request limit is spent: the run stops without retrying/);
      expect(crm.limits.dailyLimited).toBe(1);
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      await e2e.stop();
      await server.close();
    }
  });
});
