import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture } from '../fixtures/crm/crm-leads';
import * as amocrm from '../fixtures/crm/amocrm';
import * as hubspot from '../fixtures/crm/hubspot';
import { E2eSync } from './e2e-harness';

/**
 * The look-ups that decide whether something is created read every page of their matches, and stop where the CRM
 * pages no further. Fixture CRMs on loopback (paged as the CRMs page), the sandbox, SQLite.
 */
describe('lead delivery into amoCRM: the lead\'s contact on the second page of the phone search', () => {
  let server: CrmServer;
  let crm: LeadFixture;
  let e2e: E2eSync;

  beforeAll(async () => {
    const made = amocrm.createCrm();
    crm = made.leads;
    server = await startCrmServer(made.handler);
    e2e = await E2eSync.start({
      connectionId: 'amo-contact-pages', connector: 'generic-crm',
      settings: { ...amocrm.settings(server.url), lead_delivery: { pipeline: 'Продажи', lead_id_field: 'ID заявки', duplicates: 'attach' } },
    });
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('finds the contact and its open deal: a note, no second contact or deal', async () => {
    // `query` is full text: 255 contacts whose numbers hold the same ten digits (with an extension) come first
    for (let n = 0; n < 255; n += 1) crm.addContactWithOpenDeal({ name: `Офис ${n}`, phone: `+7 912 000-11-22 доб. ${100 + n}` }, '3001', '55501');
    const own = crm.addContactWithOpenDeal({ name: 'Иван', phone: '+7 912 000-11-22' }, '3001', '55501');
    await e2e.sandbox.post('project/proxy-leads/add', { title: 'Снова Иван', name: 'Иван', phone: '89120001122', email: '', text: '', tracker: '1000400' });
    const run = await e2e.leadsPass();
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.flowCounters).toMatchObject({ created: 0, attached: 1, rejected: 0 });
    expect(crm.notesOf(own.dealId)).toEqual([expect.stringContaining('Снова Иван')]);
    expect({ contacts: crm.createdContacts(), deals: crm.createdDeals() }).toEqual({ contacts: [], deals: [] });
    const searches = server.requests.filter((r) => r.path === '/api/v4/contacts' && r.query.get('query') === '9120001122');
    expect(searches.map((r) => r.query.get('page'))).toEqual([null, '2']);
  });
});

describe('lead delivery into HubSpot: a look-up with more matches than the search pages to', () => {
  let server: CrmServer;
  let crm: LeadFixture;
  let e2e: E2eSync;

  beforeAll(async () => {
    const made = hubspot.createCrm({ leads: { loseDealAnswers: [1] } });
    crm = made.leads;
    server = await startCrmServer(made.handler);
    e2e = await E2eSync.start({
      connectionId: 'hs-search-cap', connector: 'generic-crm',
      settings: { ...hubspot.settings(server.url), retry: { base_ms: 5 }, lead_delivery: { pipeline: 'Продажи', lead_id_field: 'ID заявки', duplicates: 'create', lookup_lag_seconds: 0, settle_seconds: 0 } },
    });
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('fails the pass naming the cap instead of deciding on part of the matches; nothing is sent again', async () => {
    const answer = await e2e.sandbox.post('project/proxy-leads/add', { title: 'Потерян', name: 'Олег', phone: '', email: 'oleg.cap@example.ru', text: '', tracker: '1000401' });
    const leadId = String(answer.body.id);
    crm.addLookupDecoys(leadId, 10_000, { leadId: 'lead_id', other: 'lead_comment' }, { pipeline: '7755001', stage: '7755101' });
    const run = await e2e.leadsPass();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/lead_delivery\.requests\.find_deals: more than 10000 matches, and the CRM's search pages no further/);
    expect(crm.createdDeals()).toHaveLength(1);
    const lookups = server.requests.filter((r) => r.path === '/crm/v3/objects/deals/search' && JSON.stringify(r.body).includes(`"value":"${leadId}"`));
    // 50 pages of 200 (after 0 … 9,800); the 51st would start at 10,000
    expect(lookups).toHaveLength(50);
  }, 120_000);
});
