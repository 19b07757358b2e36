import * as amocrm from '../fixtures/crm/amocrm';
import { startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { E2eSync } from './e2e-harness';
import { readServiceContents } from './sandbox-readback';
import { expectedOrderListView, orderListView, sortedById } from './service-shape';

/**
 * amoCRM lists users only to an account administrator (GET /api/v4/users answers 403 otherwise): a connection with
 * another user's token still sends every deal (each with its responsible_user_id as manager_id); the managers are
 * left out with one notice the run keeps.
 */
describe('e2e: amoCRM with a token of no administrator → engine → sandbox', () => {
  it('sends every deal and names the missing right once', async () => {
    const crm = await startCrmServer(amocrm.createCrm({ notAdmin: true }).handler);
    const e2e = await E2eSync.start({ connectionId: 'amo', connector: 'generic-crm', settings: amocrm.settings(crm.url) });
    try {
      await e2e.registerVisits(amocrm.expected.deals.map((d) => d.visit_id).filter((v): v is string => !!v));
      const run = await e2e.run();
      expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
      expect(run.streams.deals).toMatchObject({ read: 4, sent: 4, rejected: 0 });
      expect(run.streams.managers).toMatchObject({ read: 0, sent: 0 });
      expect(run.streams.managers?.notices).toEqual([expect.stringMatching(/managers left out: GET \/api\/v4\/users answered HTTP 403: .*administrator/)]);
      const contents = await readServiceContents(e2e.tracker);
      expect(sortedById(contents.orders.map(orderListView))).toEqual(sortedById(amocrm.expected.deals.map(expectedOrderListView)));
      expect(contents.managers).toEqual([]);
    } finally {
      await e2e.stop();
      await crm.close();
    }
  });
});
