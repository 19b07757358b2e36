import { DEAL_MAPPING_VERSION } from '../../src/engine/mappings/deals';
import { describeStores } from '../support/store-drivers';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

describeStores('engine: incremental and full runs', (driver) => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await new EngineHarness({ driver, batchSize: 50 }).start();
  });
  afterEach(() => h.stop());

  it('warns of the deals sent without a visit number; not of those read again and left unchanged', async () => {
    h.source.deals = makeDeals(3); // d2 has no visit
    const first = await h.run();
    expect(first.streams.deals).toMatchObject({ sent: 3, sent_without_visit: 1 });
    expect(h.logger.lines.filter((l) => l.includes('without a visit'))).toEqual([expect.stringMatching(/^warn .*deals: 1 deal sent without a visit number$/)]);
    h.logger.lines.length = 0;
    const again = await h.run(); // the overlap reads the three again: unchanged, not sent
    expect(again.streams.deals).toMatchObject({ read: 3, sent: 0, unchanged: 3, sent_without_visit: 0 });
    expect(h.logger.lines.filter((l) => l.includes('without a visit'))).toEqual([]);
  });

  it('first run sends all; a second run sends only new and changed records', async () => {
    h.source.deals = makeDeals(120);
    const first = await h.run();
    expect(first.status).toBe('succeeded');
    expect(first.streams.deals).toMatchObject({ read: 120, sent: 120, unchanged: 0, rejected: 0 });
    expect(h.service.orders.size).toBe(120);
    expect(await h.cursor()).toBe('2025-03-10T09:01:59.000Z');

    // one changed (newer updated_at), two new
    const changed = h.source.deals[100];
    changed.price = 9999;
    changed.updated_at = new Date('2025-03-10T10:00:00.000Z');
    h.source.deals.push(...makeDeals(2, { from: 121, start: new Date('2025-03-10T10:00:01.000Z') }));
    h.source.deals.sort((a, b) => a.updated_at!.getTime() - b.updated_at!.getTime()); // the CRM sorts by updated_at
    h.service.orderDeliveries.length = 0;

    const second = await h.run();
    expect(second.status).toBe('succeeded');
    expect(h.service.orderDeliveries.sort()).toEqual(['d101', 'd121', 'd122']);
    expect(second.streams.deals?.sent).toBe(3);
    expect(h.service.orders.get('d101').price).toBe('9999');
    expect(await h.cursor()).toBe('2025-03-10T10:00:02.000Z');
  });

  it('re-reads the overlap but never re-sends the last record (fingerprints)', async () => {
    h.source.deals = makeDeals(10);
    await h.run();
    h.service.orderDeliveries.length = 0;
    const again = await h.run();
    const windows = h.source.windows.filter((w) => w.stream === 'deals');
    expect(windows[1].since?.toISOString()).toBe('2025-03-10T08:55:09.000Z'); // cursor 09:00:09 − 300 s
    expect(again.streams.deals).toMatchObject({ read: 10, unchanged: 10, sent: 0 });
    expect(h.service.orderDeliveries).toEqual([]);
  });

  it('full resync sends everything again, ignoring cursors and fingerprints', async () => {
    h.source.deals = makeDeals(60);
    await h.run();
    h.service.orderDeliveries.length = 0;
    const full = await h.run('full');
    expect(full.status).toBe('succeeded');
    expect(h.service.orderDeliveries).toHaveLength(60);
    expect(h.source.windows.filter((w) => w.stream === 'deals')[1].since).toBeNull();
  });

  it('since mode reads from the given date', async () => {
    h.source.deals = makeDeals(30);
    await h.run();
    h.service.orderDeliveries.length = 0;
    const since = await h.run('since', '2025-03-10');
    expect(since.status).toBe('succeeded');
    // the day as the service counts days: from 00:00 UTC+03:00, the Moscow night of the 10th included
    expect(h.source.windows.filter((w) => w.stream === 'deals')[1].since?.toISOString()).toBe('2025-03-09T21:00:00.000Z');
    expect(h.service.orderDeliveries).toHaveLength(30);
  });

  it('a run that reads nothing leaves the cursor where it was (never moved to now)', async () => {
    h.source.deals = makeDeals(5);
    await h.run();
    const before = await h.cursor();
    h.source.honourWindow = true;
    h.source.deals = []; // the CRM returns nothing new
    const empty = await h.run();
    expect(empty.status).toBe('succeeded');
    expect(await h.cursor()).toBe(before);
  });

  it('maps deals to add-orders payloads with +0000 dates, string prices and category levels', async () => {
    h.source.deals = makeDeals(1);
    await h.run();
    const order = h.service.orders.get('d1');
    expect(order).toMatchObject({
      id: 'd1',
      name: 'Deal 1',
      date_create: '2025-03-10 09:00:00+0000',
      status: '0',
      tracker: '1001',
      price: '101',
      products: [{ id: 'p1', name: 'Thing', quantity: 1, price: 10, category: { level1: 'a', level2: 'b' } }],
    });
  });
});

describeStores('engine: connector-given hashes (Page.hashes)', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('are the fingerprints: unchanged rows are dropped before mapping; changed and rejected rows are handled', async () => {
    h = await new EngineHarness({ driver, batchSize: 4, source: { hashes: true, honourWindow: false, sorted: false } }).start();
    h.source.deals = makeDeals(10);
    h.source.deals[4].custom_fields = { note: 'z'.repeat(1001) };
    const first = await h.run('full');
    expect(first.streams.deals).toMatchObject({ read: 10, sent: 9, rejected: 1 });
    const states = await h.query(`SELECT fingerprint FROM record_state WHERE external_id = 'd1'`);
    expect(states[0].fingerprint).toMatch(new RegExp(`^s${DEAL_MAPPING_VERSION}:[0-9a-f]{32}$`));

    h.source.deals[7].price = 1;
    h.service.orderDeliveries.length = 0;
    const second = await h.run();
    expect(second.streams.deals).toMatchObject({ read: 10, unchanged: 8, sent: 1, rejected: 1 });
    expect(h.service.orderDeliveries).toEqual(['d8']);
    expect(second.rejected[0]).toMatchObject({ external_id: 'd5', field: 'fields.note', fingerprint: expect.stringMatching(`s${DEAL_MAPPING_VERSION}:`) });
  });
});
