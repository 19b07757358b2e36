import * as bitrix24 from '../fixtures/crm/bitrix24';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { E2eSync } from './e2e-harness';

/**
 * Bitrix24's first read (and a full resync) goes by id, as its huge-data guide says, while later reads go by
 * updatedTime. On a real portal an old deal is often edited after newer ones: its id comes first, its time last.
 * The engine must not take that first read for an unsorted "sorted" stream (it failed every first sync, and the
 * cursor never moved); it moves the cursor at the read's end, and later reads go on by updatedTime.
 */
describe('e2e: a Bitrix24 portal whose oldest deal was edited last', () => {
  let server: CrmServer;
  let e2e: E2eSync;

  beforeAll(async () => {
    const crm = bitrix24.createCrm({ moreDeals: 60, pageSize: 50 });
    crm.setVisit('201', '555001'); // edited now: deal 201 (the lowest id) is the latest change
    server = await startCrmServer(crm.handler);
    e2e = await E2eSync.start({ connectionId: 'b24-edited', connector: 'generic-crm', settings: bitrix24.settings(server.url) });
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('the first run reads every deal by id and succeeds; the next reads from the latest change on', async () => {
    const first = await e2e.run();
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams.deals).toMatchObject({ read: 63, rejected: 0 });
    const byId = server.requests.filter((r) => r.path.endsWith('crm.item.list.json') && r.query.get('entityTypeId') === '2');
    expect(byId[0].query.get('order[id]')).toBe('ASC');

    server.requests.length = 0;
    const second = await e2e.run();
    expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
    const later = server.requests.filter((r) => r.path.endsWith('crm.item.list.json') && r.query.get('entityTypeId') === '2');
    // the cursor stands at deal 201's change (minus the overlap): only it and what came after are read again
    expect(later[0].query.get('filter[>=updatedTime]')).not.toBeNull();
    expect(second.streams.deals!.read).toBeLessThan(63);
  });
});
