import { startCrmServer, CrmServer } from '../fixtures/crm/crm-fixture-server';
import * as hubspot from '../fixtures/crm/hubspot';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { E2eSync } from './e2e-harness';
import { orderDetails } from './sandbox-readback';

/**
 * A HubSpot private app without the line items scope: the deals go (with their stage history), the products are
 * left out with one notice per run naming the missing scope; the run keeps it with the deals' counters (what the
 * status page shows under the streams table).
 */
describe('e2e: a CRM refusing the products endpoint', () => {
  let crm: CrmServer;
  let e2e: E2eSync;
  beforeAll(async () => {
    crm = await startCrmServer(hubspot.createHandler({ refuseProducts: true }));
    e2e = await E2eSync.start({ connectionId: 'hs-no-products', connector: 'generic-crm', settings: hubspot.settings(crm.url) });
    await e2e.registerVisits(hubspot.expected.deals.map((d) => d.visit_id).filter((v): v is string => !!v));
  });
  afterAll(async () => {
    await e2e?.stop();
    await crm?.close();
  });

  it('sends every deal with its history and no products, and keeps one notice naming the scope', async () => {
    const run = await e2e.run();
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.streams.deals).toMatchObject({ read: 3, sent: 3, rejected: 0 });
    expect(run.streams.deals?.notices).toEqual([expect.stringMatching(/^connection hs-no-products, stream deals: products left out: .*HTTP 403.*crm\.objects\.line_items\.read/)]);
    const details = await orderDetails(e2e.tracker, ['801', '803']);
    expect(details.get('801')!.products).toEqual([]);
    expect((details.get('801')!.order as { history?: unknown[] }).history).toHaveLength(3);
    const stored = await e2e.store.query('SELECT streams FROM run ORDER BY id DESC LIMIT 1');
    expect(JSON.parse(stored[0].streams).deals.notices).toEqual(run.streams.deals?.notices);
  });

  it('warns again on the next run (once per run), and sends nothing new', async () => {
    const run = await e2e.run();
    expect(run.streams.deals?.notices).toHaveLength(1);
    expect(run.streams.deals?.sent).toBe(0);
  });
});

/** A Pipedrive token whose user may not see products (403 on /v2/deals/products): the same, with the deals' flow. */
describe('e2e: Pipedrive refusing the products endpoint', () => {
  let crm: CrmServer;
  let e2e: E2eSync;
  beforeAll(async () => {
    crm = await startCrmServer(pipedrive.createHandler({ refuseProducts: true }));
    e2e = await E2eSync.start({ connectionId: 'pd-no-products', connector: 'generic-crm', settings: pipedrive.settings(crm.url) });
    await e2e.registerVisits(pipedrive.expected.deals.map((d) => d.visit_id).filter((v): v is string => !!v));
  });
  afterAll(async () => {
    await e2e?.stop();
    await crm?.close();
  });

  it('sends every deal with its history and no products, and keeps one notice naming what to grant', async () => {
    const run = await e2e.run();
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.streams.deals).toMatchObject({ read: pipedrive.expected.deals.length, sent: pipedrive.expected.deals.length, rejected: 0 });
    expect(run.streams.deals?.notices).toEqual([expect.stringMatching(/^connection pd-no-products, stream deals: products left out: .*HTTP 403.*products:read/)]);
    const details = await orderDetails(e2e.tracker, ['1001', '1003']);
    expect(details.get('1001')!.products).toEqual([]);
    expect((details.get('1001')!.order as { history?: unknown[] }).history).toHaveLength(3);
    expect(crm.requests.filter((r) => r.path === '/api/v2/deals/products')).toHaveLength(1);
  });
});

/**
 * A HubSpot private app without the owners scope: GET /crm/v3/owners answers 403 MISSING_SCOPES. That refuses one
 * endpoint, not the token (a 401 would stop the run): the managers stream fails, clients and deals still go (a deal
 * carries its owner's id in a custom field only), and the run fails naming it, lasting (no retry grants a scope).
 */
describe('e2e: a CRM refusing the owners endpoint', () => {
  it('fails the managers stream alone: clients and deals are sent, the run fails naming managers and what was synced', async () => {
    const crm = await startCrmServer(hubspot.createHandler({ refuseOwners: true }));
    const e2e = await E2eSync.start({ connectionId: 'hs-no-owners', connector: 'generic-crm', settings: hubspot.settings(crm.url) });
    try {
      await e2e.registerVisits(hubspot.expected.deals.map((d) => d.visit_id).filter((v): v is string => !!v));
      const run = await e2e.run();
      expect({ status: run.status, lasting: run.lasting }).toEqual({ status: 'failed', lasting: true });
      expect(run.error).toMatch(/^connection hs-no-owners, stream managers, GET \S*\/crm\/v3\/owners\S*: .*HTTP 403: .*granted all required scopes.*; the run went on without it: synced clients, deals$/);
      expect(run.streams.deals).toMatchObject({ read: 3, sent: 3, rejected: 0 });
      expect(run.streams.clients?.sent).toBeGreaterThan(0);
      expect((await orderDetails(e2e.tracker, ['801'])).get('801')!.order).toMatchObject({ fields_data: expect.objectContaining({ manager_id: expect.any(String) }) });
    } finally {
      await e2e.stop();
      await crm.close();
    }
  });
});
