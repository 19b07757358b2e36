import { describeStores } from '../support/store-drivers';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

const T = new Date('2025-03-10T09:00:00.000Z');

describeStores('engine: cursor rules', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('records sharing the boundary timestamp are never lost and never re-sent (even with no overlap)', async () => {
    h = await new EngineHarness({ driver, batchSize: 2, sync: { overlap_seconds: 0 }, source: { pageSize: 2 } }).start();
    h.source.deals = makeDeals(3, { sameTime: true, start: T });
    await h.run();
    expect(await h.cursor()).toBe(T.toISOString());

    // two more deals committed late with the very same updated_at
    h.source.deals.push(...makeDeals(2, { sameTime: true, start: T, from: 4 }));
    h.service.orderDeliveries.length = 0;
    const second = await h.run();
    expect(second.streams.deals).toMatchObject({ read: 5, unchanged: 3, sent: 2 });
    expect(h.service.orderDeliveries.sort()).toEqual(['d4', 'd5']);
    expect(h.service.orders.size).toBe(5);
  });

  it('ties split across pages and a failed batch: the cursor stays at the tie, the rerun sends only the rest', async () => {
    h = await new EngineHarness({ driver, batchSize: 2, concurrency: 1, retries: 0, source: { pageSize: 3 } }).start();
    h.source.deals = [...makeDeals(7, { sameTime: true, start: T }), ...makeDeals(2, { start: new Date(T.getTime() + 60_000), from: 8 })];
    h.service.script = (call) => (call.ids.includes('d5') ? { status: 500, body: { status: 'error', error: 'boom' } } : undefined);
    const failed = await h.run();
    expect(failed.status).toBe('failed');
    expect(await h.cursor()).toBe(T.toISOString());
    expect(h.service.orders.has('d8')).toBe(false);

    h.service.script = null;
    h.service.orderDeliveries.length = 0;
    const rerun = await h.run();
    expect(rerun.status).toBe('succeeded');
    expect(h.service.orderDeliveries.sort()).toEqual(['d5', 'd6', 'd7', 'd8', 'd9']);
    expect(h.service.orders.size).toBe(9);
    expect(await h.cursor()).toBe('2025-03-10T09:01:01.000Z');
  });

  it('the signpost: records updated after the run started are not covered by the cursor', async () => {
    h = await new EngineHarness({ driver, source: { honourWindow: false } }).start();
    const future = new Date(Date.now() + 3600_000);
    h.source.deals = [...makeDeals(3, { start: T }), ...makeDeals(1, { start: future, from: 4 })];
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(h.service.orders.has('d4')).toBe(false);
    expect(await h.cursor()).toBe('2025-03-10T09:00:02.000Z');
    expect(new Date((await h.cursor())!).getTime()).toBeLessThanOrEqual(new Date(run.startedAt).getTime());
    expect(h.logger.lines.some((l) => l.includes('1 records updated after the run'))).toBe(true);
  });

  it('the signpost: a stream with records deferred to the next run does not store the connector state (a file is not read as a whole)', async () => {
    h = await new EngineHarness({ driver, source: { honourWindow: false, state: { content_hash: 'h1' } } }).start();
    const storedState = async () => {
      const state = (await h.query('SELECT state FROM stream_state WHERE connection_id = ? AND stream = ?', [h.connectionId, 'deals']))[0]?.state ?? null;
      return typeof state === 'string' ? JSON.parse(state) : state;
    };
    h.source.deals = [...makeDeals(3, { start: T }), ...makeDeals(1, { start: new Date(Date.now() + 3600_000), from: 4 })];
    expect((await h.run()).status).toBe('succeeded');
    expect(await storedState()).toBeNull();

    h.source.deals = makeDeals(3, { start: T });
    expect((await h.run()).status).toBe('succeeded');
    expect(await storedState()).toMatchObject({ content_hash: 'h1' });
  });

  it('lag_seconds moves the upper bound back from the run start', async () => {
    h = await new EngineHarness({ driver, sync: { lag_seconds: 120 } }).start();
    h.source.deals = makeDeals(1, { start: T });
    const run = await h.run();
    const window = h.source.windows.find((w) => w.stream === 'deals')!;
    expect(new Date(run.startedAt).getTime() - window.until.getTime()).toBe(120_000);
  });

  it('a stream claiming sorted whose updated_at goes backwards fails loudly and does not move the cursor past it', async () => {
    h = await new EngineHarness({ driver, batchSize: 2, concurrency: 1, source: { pageSize: 2 } }).start();
    const [d1, d2, d3, d4, d5, d6] = makeDeals(6, { start: T });
    h.source.deals = [d1, d2, d5, d6, d3, d4];
    // the first pages are acknowledged (cursor at d6) before the out-of-order page arrives
    h.source.beforePage = (stream, index) => (stream === 'deals' && index === 2 ? new Promise((r) => setTimeout(r, 300)) : undefined);
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/claims to be sorted.*record d3 has updated_at 2025-03-10T09:00:02.000Z after 2025-03-10T09:00:05.000Z/);
    // batches before the violation stay acknowledged, but the cursor is pulled back to the out-of-order record
    expect(await h.cursor()).toBe('2025-03-10T09:00:02.000Z');
    h.source.beforePage = undefined;
    h.source.deals.sort((a, b) => a.updated_at!.getTime() - b.updated_at!.getTime());
    h.service.orderDeliveries.length = 0;
    expect((await h.run()).status).toBe('succeeded');
    expect(h.service.orderDeliveries).toEqual(['d3', 'd4']);
  });

  it('a connector yielding a page it already yielded fails the stream instead of looping', async () => {
    h = await new EngineHarness({ driver, source: { pageSize: 2, repeatFirstPage: true } }).start();
    h.source.deals = makeDeals(4, { start: T });
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/stream deals: page 2 repeats page 1 \(records d1…d2\).*paginator loops/);
  });
});

describeStores('engine: unsorted incremental streams', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('move the cursor only at the stream end; a failure keeps acknowledged progress in record_state (no re-send)', async () => {
    h = await new EngineHarness({ driver, batchSize: 2, concurrency: 1, retries: 0, source: { sorted: false, pageSize: 2 } }).start();
    const deals = makeDeals(8, { start: T });
    h.source.deals = [deals[5], deals[0], deals[7], deals[2], deals[1], deals[6], deals[3], deals[4]];
    h.service.script = (call) => (call.ids.includes('d2') ? { status: 500, body: 'down' } : undefined);
    const failed = await h.run();
    expect(failed.status).toBe('failed');
    expect(await h.cursor()).toBeNull();
    const acknowledged = h.service.orders.size;
    expect(acknowledged).toBe(4);

    h.service.script = null;
    h.service.orderDeliveries.length = 0;
    const rerun = await h.run();
    expect(rerun.status).toBe('succeeded');
    expect(rerun.streams.deals).toMatchObject({ read: 8, unchanged: 4, sent: 4 });
    expect(h.service.orderDeliveries.sort()).toEqual(['d2', 'd4', 'd5', 'd7']);
    expect(await h.cursor()).toBe('2025-03-10T09:00:07.000Z');
  });
});
