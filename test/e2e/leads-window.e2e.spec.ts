import type { RunSummary } from '../../src/engine/engine-types';
import { PROXY_LEAD_KIND, ProxyLeadDoc } from '../../src/sandbox/sections/proxyleads/proxy-lead.types';
import { SandboxDocumentStore } from '../../src/sandbox/storage/document-store';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture } from '../fixtures/crm/crm-leads';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { E2eSync } from './e2e-harness';

/**
 * The proxy-lead window: one list request a pass, for the days not yet complete. The first pass starts at `since`;
 * a day stays in the window while one of its leads is not handled (a refusal), and leaves it once every lead of it
 * is (delivered, or given an order_id by the service); leads before `since` are never taken.
 */
describe('e2e: the proxy-lead window', () => {
  let e2e: E2eSync;
  let server: CrmServer;
  let crm: LeadFixture;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const periods = () => e2e.serviceCalls!.calls.filter((c) => c.path.endsWith('/project/proxy-leads')).map((c) => new URLSearchParams(c.query).get('period'));
  const pass = (): Promise<RunSummary> => e2e.leadsPass();
  const docs = () => e2e.sandbox.app.get(SandboxDocumentStore);
  const insert = (lead: Partial<ProxyLeadDoc>) => docs().insert<ProxyLeadDoc>(e2e.sandbox.projectId, PROXY_LEAD_KIND, {
    title: 'Заявка', text: '', name: 'Клиент', phone: '', email: '', tracker: '1000005', creation_date: `${day(0)} 00:00:01`, order_id: '', ...lead,
  });
  let refused: string;
  /** the demo seed's proxy leads in the window (they all have an order_id there: already the service's) */
  let seeded = 0;
  let mine = 0;

  beforeAll(async () => {
    const fixture = pipedrive.createCrm({ leads: { refuseTitle: 'REFUSE-ME' } });
    crm = fixture.leads;
    server = await startCrmServer(fixture.handler);
    e2e = await E2eSync.start({
      connectionId: 'leads-window', connector: 'generic-crm', recordServiceCalls: true,
      settings: { ...pipedrive.settings(server.url), lead_delivery: { lead_id_field: 'ID заявки', since: day(-1), duplicates: 'create' } },
    });
    const seed = (await e2e.tracker.proxyLeads.list(`${day(-1)}-${day(0)}`)).ProxyLeads;
    expect(seed.every((lead) => lead.order_id !== '')).toBe(true);
    seeded = seed.length;
    mine = periods().length; // the test's own look at the list
    await insert({ title: 'Too old', phone: '+7 900 000-00-01', creation_date: `${day(-3)} 12:00:00` });
    refused = (await insert({ title: 'REFUSE-ME', phone: '+7 900 000-00-02', creation_date: `${day(-1)} 10:00:00` })).id;
    await insert({ title: 'Yesterday', phone: '+7 900 000-00-03', creation_date: `${day(-1)} 11:00:00` });
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('the first pass reads from `since` to today in one request, and never takes a lead before `since`', async () => {
    const first = await pass();
    expect(first.flowCounters).toEqual({ found: 2 + seeded, created: 1, attached: 0, already_delivered: seeded, rejected: 1 });
    expect(periods().slice(mine)).toEqual([`${day(-1)}-${day(0)}`]);
    expect(crm.createdDeals().map((d) => d.title)).toEqual(['Yesterday']);
  });

  it('a day with a lead not yet delivered stays in the window', async () => {
    const second = await pass();
    expect(second.flowCounters).toMatchObject({ found: 2 + seeded, created: 0, already_delivered: 1 + seeded, rejected: 1 });
    expect(periods().at(-1)).toBe(`${day(-1)}-${day(0)}`);
  });

  it('once every lead of a day is handled (here: the service gave it an order), the window moves on to today', async () => {
    await docs().update<ProxyLeadDoc>(e2e.sandbox.projectId, PROXY_LEAD_KIND, refused, { order_id: '555' });
    const third = await pass();
    expect(third.flowCounters).toMatchObject({ found: 2 + seeded, created: 0, already_delivered: 2 + seeded, rejected: 0 });
    await insert({ title: 'Today', phone: '+7 900 000-00-04' });
    const fourth = await pass();
    expect(periods().at(-1)).toBe(`${day(0)}-${day(0)}`);
    expect(fourth.flowCounters).toMatchObject({ created: 1 });
  });
});
