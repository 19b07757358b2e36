import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm, bitrix24, hubspot, pipedrive, SetupFixture } from '../fixtures/crm/setup';
import { E2eSync } from './e2e-harness';
import { allOrders } from './sandbox-readback';

const TYPE_OF = { won: 'paid', lost: 'canceled', open: 'progress' } as const;

/**
 * `statuses: register` on each preset against a CRM account of two pipelines (the set-up fixtures of `cli discover`):
 * every stage of every pipeline is registered in the project with its group before the deals go, so a deal in the
 * second pipeline arrives with its own stage id, none skipped_by_status. The Bitrix24 account's crm.status.list
 * answers 50 a page with the second pipeline's stages on the second page: a stage listing that read one page
 * registered the first pipeline only, and the second pipeline's deals were skipped.
 */
describe.each([amocrm, bitrix24, pipedrive, hubspot])('statuses: register, preset $preset, two pipelines', (fixture: SetupFixture) => {
  let crm: CrmServer;
  let e2e: E2eSync;

  beforeAll(async () => {
    crm = await startCrmServer(fixture.handler);
    e2e = await E2eSync.start({ connectionId: `${fixture.preset}-own`, connector: 'generic-crm', settings: fixture.settings(crm.url), statuses: 'register' });
    await e2e.registerVisits(fixture.deals.map((d) => d.visit));
  });

  afterAll(async () => {
    await e2e?.stop();
    await crm?.close();
  });

  it('registers every pipeline\'s stages with their groups; each deal arrives with a stage the project knows', async () => {
    const run = await e2e.run();
    expect({ status: run.status, error: run.error, skipped: run.counters.skipped_by_status }).toEqual({ status: 'succeeded', error: null, skipped: 0 });
    const registered = new Map((await e2e.tracker.orders.listStatuses()).map((s) => [s.id, s.type]));
    const expected = [
      ...fixture.catalog.pipelines.flatMap((p) => p.stages.map((s) => [s.id, TYPE_OF[s.outcome]] as const)),
      ...fixture.catalog.deal_statuses.map((s) => [s.key, TYPE_OF[s.outcome]] as const),
    ];
    expect(expected.filter(([id, type]) => registered.get(id) !== type)).toEqual([]);
    const orders = await allOrders(e2e.tracker);
    expect(orders.filter((o) => !registered.has(o.status.id)).map((o) => o.status.id)).toEqual([]);
    const seen = orders.map((o) => ({ id: o.id, type: o.status.type })).sort((a, b) => a.id.localeCompare(b.id));
    expect(seen).toEqual(fixture.deals.map((d) => ({ id: d.id, type: d.group })).sort((a, b) => a.id.localeCompare(b.id)));
  });
});
