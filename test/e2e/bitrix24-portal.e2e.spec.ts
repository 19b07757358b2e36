import * as bitrix24 from '../fixtures/crm/bitrix24';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { generatedDeals } from '../fixtures/crm/crm-writes';
import { E2eSync } from './e2e-harness';
import { readServiceContents, ServiceContents } from './sandbox-readback';
import type { RunSummary } from '../../src/engine/engine-types';

/**
 * "A Bitrix24 portal of 120 users gets every deal into the service", as a new user sees it: a portal of 120 users
 * (user.get answers 50 a page) whose 120 new deals belong to users 101..217 in turn, the preset as shipped, one run
 * into the sandbox. Every manager the checks accept is there (user 9 has neither phone nor e-mail), every deal is
 * an order, with its manager.
 */
describe('e2e: a Bitrix24 portal of 120 users → engine → sandbox', () => {
  const MORE_USERS = 117;
  const MORE_DEALS = 120;
  let server: CrmServer;
  let e2e: E2eSync;
  let run: RunSummary;
  let contents: ServiceContents;

  beforeAll(async () => {
    server = await startCrmServer(bitrix24.createCrm({ moreUsers: MORE_USERS, moreDeals: MORE_DEALS, pageSize: 50 }).handler);
    e2e = await E2eSync.start({ connectionId: 'b24-portal', connector: 'generic-crm', settings: bitrix24.settings(server.url) });
    await e2e.registerVisits(['555001', '555003', ...generatedDeals(MORE_DEALS).map((d) => d.visitId).filter((v): v is string => !!v)]);
    run = await e2e.run();
    contents = await readServiceContents(e2e.tracker);
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('the run succeeds: 120 managers read (one refused: no phone, no e-mail), 123 deals sent', () => {
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.streams.managers).toMatchObject({ read: 120, sent: 119, rejected: 1 });
    expect(run.streams.deals).toMatchObject({ read: 3 + MORE_DEALS, sent: 3 + MORE_DEALS, rejected: 0 });
    expect(server.requests.filter((r) => r.path.endsWith('user.get.json')).map((r) => r.query.get('start'))).toEqual([null, '50', '100']);
  });

  it('every manager is in the service, those of user.get\'s third page too', () => {
    const ids = contents.managers.map((m) => String(m.id)).sort();
    const expected = ['1', '7', ...Array.from({ length: MORE_USERS }, (_, i) => String(101 + i))].sort();
    expect(ids).toEqual(expected);
  });

  it('every deal is an order', () => {
    const ids = new Set(contents.orders.map((o) => String(o.id)));
    const expected = ['201', '202', '203', ...Array.from({ length: MORE_DEALS }, (_, i) => String(1201 + i))];
    expect(expected.filter((id) => !ids.has(id))).toEqual([]);
  });
});
