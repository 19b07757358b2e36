import type { RunSummary } from '../../src/engine/engine-types';
import { loadPreset } from '../../connectors/generic-crm/definition/presets';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture, LeadFixtureOptions } from '../fixtures/crm/crm-leads';
import * as hubspot from '../fixtures/crm/hubspot';
import { E2eSync } from './e2e-harness';

/**
 * HubSpot finds a deal by its lead id through the search API, an index filled a moment after the write. A deal
 * create whose answer is lost (the deal made, the connection dropped) is looked up only once that lag has passed
 * (`lead_delivery.lookup_lag_seconds`): looked up at once, the search misses it and the lead gets a second deal.
 * Fixture CRM on loopback (held to HubSpot's OpenAPI documents), the sandbox, SQLite.
 */
describe('lead delivery into HubSpot: a lost create answer and a search that lags behind the write', () => {
  const LAG_MS = 1_500;
  const faults: LeadFixtureOptions = { loseDealAnswers: [1], searchLagMs: LAG_MS };
  let server: CrmServer;
  let crm: LeadFixture;
  let e2e: E2eSync;

  const pass = (): Promise<RunSummary> => e2e.leadsPass();

  beforeAll(async () => {
    const made = hubspot.createCrm({ leads: faults });
    crm = made.leads;
    server = await startCrmServer(made.handler);
    const leadDelivery = {
      pipeline: 'Продажи', lead_id_field: 'ID заявки',
      // the preset waits 30 s; the fixture's index lags 1.5 s. The settle time after the unknown outcome is shorter:
      // the look-up lag, the longer, is what is waited
      lookup_lag_seconds: 2, settle_seconds: 1,
    };
    e2e = await E2eSync.start({ connectionId: 'search-lag', connector: 'generic-crm', settings: { ...hubspot.settings(server.url), retry: { base_ms: 5 }, lead_delivery: leadDelivery } });
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('the preset declares the lag of HubSpot\'s search', () => {
    const preset = loadPreset('hubspot') as { lead_delivery: { lookup_lag_seconds?: number } };
    expect(preset.lead_delivery.lookup_lag_seconds).toBeGreaterThan(0);
  });

  it('the lost create is found once the search shows it: one deal, counted created', async () => {
    const answer = await e2e.sandbox.post('project/proxy-leads/add', { title: 'Ответ потерян', name: 'Игорь', phone: '', email: 'igor.lag@example.ru', text: 'Вопрос', tracker: '1000201' });
    expect(answer.body.status).toBe('success');
    const started = Date.now();
    const run = await pass();
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.flowCounters).toMatchObject({ created: 1, rejected: 0 });
    expect(crm.createdDeals()).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LAG_MS);
    expect(e2e.log()).toContain("waiting 2 s for the CRM's search");
  });

  it('a further pass creates nothing', async () => {
    const run = await pass();
    expect(run.flowCounters).toMatchObject({ created: 0, already_delivered: 1 });
    expect(crm.createdDeals()).toHaveLength(1);
  });
});
