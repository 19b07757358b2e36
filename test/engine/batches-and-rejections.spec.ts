import { describeStores } from '../support/store-drivers';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

describeStores('engine: batches, service answers and rejections', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('a batch answered 500 is retried and acknowledged', async () => {
    h = await new EngineHarness({ driver, batchSize: 5 }).start();
    h.source.deals = makeDeals(10);
    let failures = 1;
    h.service.script = (call) => (call.path === '/project/add-orders' && failures-- > 0 ? { status: 500, body: 'oops' } : undefined);
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(h.service.callsTo('/project/add-orders')).toHaveLength(3);
    expect(h.service.orders.size).toBe(10);
  });

  it('a batch that keeps failing fails the run; batches acknowledged before stay acknowledged; the cursor does not pass it', async () => {
    h = await new EngineHarness({ driver, batchSize: 2, concurrency: 4, retries: 1 }).start();
    h.source.deals = makeDeals(12);
    h.service.script = (call) => (call.ids.includes('d5') ? { status: 503, body: { status: 'error', error: 'down' } } : undefined);
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/stream deals: batch of 2 records \(d5…d6\) failed: .*503/);
    expect(run.lasting).toBeUndefined(); // a retry may lift it: cluster mode tries the job again
    expect(await h.cursor()).toBe('2025-03-10T09:00:03.000Z'); // d4: the last of the acknowledged prefix
    const states = await h.query(`SELECT external_id FROM record_state WHERE stream = 'deals' ORDER BY external_id`);
    expect(states.map((s: { external_id: string }) => s.external_id)).toEqual(expect.arrayContaining(['d1', 'd2', 'd3', 'd4']));
    expect(states.map((s: { external_id: string }) => s.external_id)).not.toContain('d5');

    h.service.script = null;
    h.service.orderDeliveries.length = 0;
    const rerun = await h.run();
    expect(rerun.status).toBe('succeeded');
    expect(h.service.orderDeliveries).toEqual(expect.arrayContaining(['d5', 'd6']));
    expect(h.service.orderDeliveries).not.toContain('d1');
    expect(h.service.orders.size).toBe(12);
  });

  it("the service's skipped_by_invalid_format ids become rejected records; counters are summed over batches", async () => {
    h = await new EngineHarness({ driver, batchSize: 3 }).start();
    h.source.deals = makeDeals(10);
    h.service.invalidDateIds.add('d3').add('d7');
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(run.counters).toMatchObject({ uploaded: 10, processed: 10, saved: 8, skipped_by_invalid_format: 2 });
    expect(run.streams.deals).toMatchObject({ read: 10, sent: 8, rejected: 2, sent_without_visit: 5 });
    const rejected = run.rejected.filter((r) => r.source === 'service').map((r) => [r.external_id, r.field]);
    expect(rejected).toEqual([['d3', 'date_create'], ['d7', 'date_create']]);
    // the batch's payloads are let go once serialised: the excerpt is the refused order read back from the body
    const excerpt = run.rejected.find((r) => r.source === 'service' && r.external_id === 'd7')?.excerpt;
    expect(excerpt).toMatch(/^\{"id":"d7","date_create":"/);
    const row = await h.query('SELECT uploaded, saved, skipped_by_invalid_format FROM run WHERE id = ?', [run.runId]);
    expect(row[0]).toEqual({ uploaded: 10, saved: 8, skipped_by_invalid_format: 2 });
    const states = await h.query(`SELECT external_id FROM record_state WHERE external_id IN ('d3','d7')`);
    expect(states).toEqual([]);
  });

  it('skipped_by_invalid_format whose comment names no order: the batch is asked again in halves until each skipped order is found', async () => {
    h = await new EngineHarness({ driver, batchSize: 10 }).start();
    h.source.deals = makeDeals(10);
    h.service.invalidDateIds.add('d3').add('d8');
    h.service.commentWithoutIds = true;
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    // the run's counters are the service's answer to the batch, not to the halves asked again
    expect(run.counters).toMatchObject({ uploaded: 10, saved: 8, skipped_by_invalid_format: 2 });
    expect(run.streams.deals).toMatchObject({ read: 10, sent: 8, rejected: 2 });
    const rejected = run.rejected.filter((r) => r.source === 'service');
    expect(rejected.map((r) => [r.external_id, r.field])).toEqual([['d3', 'date_create'], ['d8', 'date_create']]);
    expect(rejected[0].reason).toMatch(/its comment named no order: "Invalid date_create format in 2 orders"; found by sending the batch again in halves/);
    expect(await h.query(`SELECT external_id FROM record_state WHERE external_id IN ('d3','d8')`)).toEqual([]);
    // the batch, then its halves and their halves down to each skipped order: at most 2·k·log2(n) more
    const requests = h.service.callsTo('/project/add-orders').length;
    expect(requests).toBeGreaterThan(1);
    expect(requests).toBeLessThanOrEqual(1 + 2 * 2 * Math.ceil(Math.log2(10)));
  });

  it('checks reject an oversize field naming the record and the field; the run goes on', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(4);
    h.source.deals[1].custom_fields = { comment: 'x'.repeat(1001) };
    h.source.deals[2].price = Number.NaN;
    h.source.rejected = [{ id: 'r9', field: 'created_at', reason: '"31.02.2025" is not a valid date', ref: 'deals.csv row 10', excerpt: 'r9;31.02.2025' }];
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(run.streams.deals).toMatchObject({ read: 5, sent: 2, rejected: 3 });
    const byId = Object.fromEntries(run.rejected.map((r) => [r.external_id, r]));
    expect(byId.d2).toMatchObject({ field: 'fields.comment', source: 'check', ref: 'deals d2' });
    expect(byId.d2.reason).toMatch(/1001 symbols, at most 1000/);
    expect(byId.d3).toMatchObject({ field: 'price', source: 'check' });
    expect(byId.r9).toMatchObject({ field: 'created_at', source: 'connector', ref: 'deals.csv row 10' });
    expect(byId.d2.excerpt!.length).toBeLessThanOrEqual(200);
    expect(h.service.orders.has('d2')).toBe(false);
    expect([...h.service.orders.keys()].sort()).toEqual(['d1', 'd4']);
  });

  it('a rejected record is retried automatically once its source changes', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(3);
    h.source.deals[2].custom_fields = { comment: 'x'.repeat(1001) };
    await h.run();
    expect(h.service.orders.has('d3')).toBe(false);
    h.source.deals[2].custom_fields = { comment: 'fixed' };
    h.source.deals[2].updated_at = new Date('2025-03-10T09:30:00.000Z');
    const run = await h.run();
    expect(run.streams.deals).toMatchObject({ sent: 1, unchanged: 2 });
    expect(h.service.orders.get('d3').fields.comment).toBe('fixed');
    const open = await h.query(`SELECT COUNT(*) AS n FROM rejected_record WHERE resolved = ?`, [false]);
    expect(Number(open[0].n)).toBe(0);
  });

  it('retryRejected re-sends only the rejected ids, without moving the cursor', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(5);
    h.service.invalidDateIds.add('d2');
    const first = await h.run();
    const cursor = await h.cursor();
    h.service.invalidDateIds.clear();
    h.service.orderDeliveries.length = 0;
    const { done } = await h.sync.retryRejected(first.runId);
    const retry = await done;
    expect(retry).toMatchObject({ status: 'succeeded', mode: 'retry', trigger: 'admin' });
    expect((await h.query(`SELECT mode FROM run WHERE id = ?`, [retry.runId]))[0].mode).toBe('retry');
    await expect(h.sync.start(h.connectionId, { mode: 'retry', trigger: 'cli' })).rejects.toThrow(/is not one of incremental, full, since \(a retry run/);
    expect(h.service.orderDeliveries).toEqual(['d2']);
    expect(await h.cursor()).toBe(cursor);
    const rows = await h.query(`SELECT resolved FROM rejected_record WHERE run_id = ?`, [first.runId]);
    expect(rows.map((r: { resolved: number }) => !!r.resolved)).toEqual([true]);
  });
});
