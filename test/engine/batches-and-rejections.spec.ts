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

  it("skipped_by_status: the orders whose status is not in the project's dictionary (listed once a run) are rejected, not acknowledged", async () => {
    h = await new EngineHarness({ driver, batchSize: 3 }).start();
    h.source.deals = makeDeals(6);
    h.source.deals[1].status = 'Пуфик';
    h.source.deals[4].status = 'Пуфик';
    h.service.statuses = ['0', '1'];
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(run.counters).toMatchObject({ processed: 6, saved: 4, skipped_by_status: 2 });
    expect(run.streams.deals).toMatchObject({ read: 6, sent: 4, rejected: 2 });
    const rejected = run.rejected.filter((r) => r.source === 'service');
    expect(rejected.map((r) => [r.external_id, r.field])).toEqual([['d2', 'status'], ['d5', 'status']]);
    expect(rejected[0].reason).toBe(
      'the service skipped it (skipped_by_status): status "Пуфик" is not a status of project 1 (its statuses: 0 (Status 0), 1 (Status 1)); '
        + `add it to the project or map it with status_map, then retry the run (cli retry ${run.runId})`,
    );
    expect(h.service.callsTo('/project/integration/status/list')).toHaveLength(1); // two batches skipped, one listing
    expect(await h.query(`SELECT external_id FROM record_state WHERE external_id IN ('d2','d5')`)).toEqual([]);
    // the status added to the project: the run's retry delivers them
    h.service.statuses.push('Пуфик');
    const retry = await (await h.sync.retryRejected(run.runId)).done;
    expect(retry.streams.deals).toMatchObject({ sent: 2, rejected: 0 });
    expect([...h.service.orders.keys()].sort()).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6']);
    expect((await h.query(`SELECT resolved FROM rejected_record WHERE run_id = ?`, [run.runId])).map((r: { resolved: number }) => !!r.resolved)).toEqual([true, true]);
  });

  it('skipped_by_status that cannot be told apart (no dictionary, or counts that differ) is acknowledged as before, and the run warns', async () => {
    h = await new EngineHarness({ driver, batchSize: 3 }).start();
    h.source.deals = makeDeals(3);
    h.source.deals[1].status = 'Пуфик';
    h.service.statuses = ['0'];
    h.service.script = (call) => (call.path.endsWith('/status/list') ? { status: 500, body: 'down' } : undefined);
    const unlisted = await h.run();
    expect(unlisted.streams.deals).toMatchObject({ sent: 3, rejected: 0 });
    expect(unlisted.counters.skipped_by_status).toBe(1);
    expect(h.logger.lines.join('\n')).toMatch(/warn \[demo run \d+\] deals: the service skipped 1 order of a batch for their status \(skipped_by_status\), and which cannot be told: the project's statuses could not be listed \(.*HTTP 500: down\); they count as delivered/);
    expect(unlisted.streams.deals?.notices).toEqual([expect.stringMatching(
      /^deals: 1 order the service skipped for their status \(skipped_by_status\) could not be named, so they count as delivered .*\(cli check demo\), then resync the deals \(cli sync demo --full\)$/,
    )]);

    // the dictionary listed holds the status (it changed since), yet the service skipped the order: which one is not told
    h.service.script = (call) => (call.path.endsWith('/status/list') ? { status: 200, body: { status: 'success', data: [{ id: '0', name: 'a', type: 'progress' }, { id: 'Пуфик', name: 'b', type: 'progress' }], total: 2 } } : undefined);
    const mismatch = await h.run('full');
    expect(mismatch.streams.deals).toMatchObject({ sent: 3, rejected: 0 });
    expect(mismatch.streams.deals?.notices).toEqual([expect.stringContaining(
      'could not be named, so they count as delivered and are not sent again on their own: the orders whose status the project lacks were not as many as the service counted.',
    )]);
    expect(h.logger.lines.join('\n')).toContain('and which cannot be told: the service counted 1, and every order of it has a status the project has; they count as delivered');
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
