import * as hubspot from '../fixtures/crm/hubspot';
import { startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { E2eSync } from './e2e-harness';

/**
 * Lead delivery in a HubSpot portal of 603 owners: GET /crm/v3/owners gives 500 a page at most, so the responsible
 * user written in lead_delivery ("Last Owner", on the second page) is found only by following `paging.next.after`.
 */
describe('e2e: proxy leads into hubspot, the responsible owner on the second page of owners', () => {
  it('makes the deal with that owner', async () => {
    const crm = hubspot.createCrm({ moreOwners: 600 });
    const server = await startCrmServer(crm.handler);
    const e2e = await E2eSync.start({
      connectionId: 'leads-hubspot-owners', connector: 'generic-crm',
      settings: {
        ...hubspot.settings(server.url),
        lead_delivery: { pipeline: 'Продажи', stage: 'Первичный контакт', responsible: 'Last Owner', lead_id_field: 'ID заявки' },
      },
    });
    try {
      const answer = await e2e.sandbox.post('project/proxy-leads/add', { title: 'Заявка', name: 'Иван', phone: '+7 (912) 000-11-22', email: '', text: '', tracker: '1000005' });
      expect(answer.body.status).toBe('success');
      const run = await e2e.leadsPass();
      expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
      expect(crm.leads.createdDeals().map((deal) => deal.owner)).toEqual(['1600']);
      const owners = server.requests.filter((r) => r.path === '/crm/v3/owners').map((r) => r.query.get('after'));
      expect(owners).toEqual([null, '500']);
    } finally {
      await e2e.stop();
      await server.close();
    }
  });
});
