import { describeStores } from '../support/store-drivers';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

interface OpenRow {
  stream: string;
  record_key: string;
  external_id: string;
  field: string;
  reason: string;
  ref: string | null;
  first_seen: string;
  last_seen: string;
  last_run_id: number;
}

describeStores('engine: open rejections (a standing set per connection)', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  const open = (): Promise<OpenRow[]> =>
    h.query<OpenRow[]>('SELECT stream, record_key, external_id, field, reason, ref, first_seen, last_seen, last_run_id FROM open_rejection ORDER BY record_key, field')
      .then((rows) => rows.map((r) => ({ ...r, last_run_id: Number(r.last_run_id) })));
  const keys = async () => (await open()).map((r) => `${r.record_key} ${r.field}`);

  it('a record rejected again keeps first_seen and moves last_seen; it leaves once a later run sends it', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(3);
    h.source.deals[1].price = Number.NaN;
    const first = await h.run();
    const [entered] = await open();
    expect(entered).toMatchObject({ stream: 'deals', record_key: 'id:d2', external_id: 'd2', field: 'price', ref: 'deals d2', last_run_id: first.runId });
    expect(entered.first_seen).toBe(entered.last_seen);

    const second = await h.run(); // the overlap reads d2 again: still broken
    expect(second.streams.deals).toMatchObject({ rejected: 1 });
    const [again] = await open();
    expect(again).toMatchObject({ record_key: 'id:d2', first_seen: entered.first_seen, last_run_id: second.runId });
    expect(again.last_seen > entered.last_seen).toBe(true);

    h.source.deals[1].price = 102; // the overlap reads it again
    const fixed = await h.run();
    expect(fixed.streams.deals).toMatchObject({ sent: 1, rejected: 0 });
    expect(await open()).toEqual([]);
    // the run-level lists stay as they were
    expect((await h.query('SELECT run_id FROM rejected_record ORDER BY id')).map((r: { run_id: number }) => Number(r.run_id))).toEqual([first.runId, second.runId]);
  });

  it("a record the service refused leaves when it is acknowledged, even in a run that finds it unchanged", async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(4);
    h.service.invalidDateIds.add('d3');
    await h.run();
    expect(await keys()).toEqual(['id:d3 date_create']);
    h.service.invalidDateIds.clear();
    await h.run();
    expect(await keys()).toEqual([]);

    // acknowledged, then broken, then put back as it was: the service holds that version, nothing is sent
    h.source.deals[0].price = Number.NaN;
    await h.run();
    expect(await keys()).toEqual(['id:d1 price']);
    h.source.deals[0].price = 101;
    const back = await h.run();
    expect(back.streams.deals).toMatchObject({ sent: 0, rejected: 0 });
    expect(await keys()).toEqual([]);
  });

  it('a retry of the rejected records settles those it sends', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(5);
    h.service.invalidDateIds.add('d2').add('d4');
    const first = await h.run();
    expect(await keys()).toEqual(['id:d2 date_create', 'id:d4 date_create']);
    h.service.invalidDateIds.delete('d2');
    const { done } = await h.sync.retryRejected(first.runId);
    expect(await done).toMatchObject({ status: 'succeeded', streams: { deals: { sent: 1, rejected: 1 } } });
    expect(await keys()).toEqual(['id:d4 date_create']);
  });

  it('a record rejected for another field replaces its old problems, first_seen kept', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(2);
    h.source.deals[0].price = Number.NaN;
    await h.run();
    const [before] = await open();
    h.source.deals[0].price = 101;
    h.source.deals[0].custom_fields = { comment: 'x'.repeat(1001) };
    await h.run();
    const rows = await open();
    expect(rows.map((r) => `${r.record_key} ${r.field}`)).toEqual(['id:d1 fields.comment']);
    expect(rows[0].first_seen).toBe(before.first_seen);
  });

  it('a record gone from the source leaves on a complete read only; rows without an id are told apart by their place', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(3);
    h.source.rejected = [
      { id: 'r9', field: 'created_at', reason: '"31.02.2025" is not a valid date', ref: 'deals.csv row 10' },
      { id: '', field: 'id', reason: 'is empty', ref: 'deals.csv row 11' },
      { id: '', field: 'id', reason: 'is empty', ref: 'deals.csv row 12' },
      { id: 'd1', field: 'id', reason: 'duplicate id "d1" (first at row 2)', ref: 'deals.csv row 13' },
    ];
    await h.run();
    const entered = ['id:r9 created_at', 'ref:deals.csv row 11 id', 'ref:deals.csv row 12 id', 'ref:deals.csv row 13 id'];
    expect(await keys()).toEqual(entered);
    // d1 is sent, and so is every later version of it: its duplicate row stays open all the same
    h.source.deals[0].title = 'changed';
    const second = await h.run();
    expect(second.streams.deals).toMatchObject({ sent: 1, rejected: 4 });
    expect(await keys()).toEqual(entered);

    h.source.rejected = [{ id: '', field: 'id', reason: 'is empty', ref: 'deals.csv row 12' }];
    const incremental = await h.run(); // read from the cursor on: absence means nothing
    expect(h.source.windows.at(-1)).toMatchObject({ stream: 'deals' });
    expect(h.source.windows.at(-1)!.since).not.toBeNull();
    expect(incremental.status).toBe('succeeded');
    expect(await keys()).toEqual(entered);

    const full = await h.run('full');
    expect(full.status).toBe('succeeded');
    expect(await keys()).toEqual(['ref:deals.csv row 12 id']);
  });

  it('a complete read leaves open a record it defers to the next run (updated after the run started)', async () => {
    h = await new EngineHarness({ driver, source: { honourWindow: false } }).start();
    h.source.deals = makeDeals(3);
    h.source.deals[2].price = Number.NaN;
    await h.run('full');
    expect(await keys()).toEqual(['id:d3 price']);
    h.source.deals[2].updated_at = new Date(Date.now() + 3_600_000);
    h.source.deals[2].title = 'edited while the run reads';
    const full = await h.run('full');
    expect(full.streams.deals).toMatchObject({ read: 2, rejected: 0 });
    expect(await keys()).toEqual(['id:d3 price']);
  });

  it('a run stopped before the end of a stream settles what it sent and closes nothing by absence', async () => {
    h = await new EngineHarness({ driver, batchSize: 2, concurrency: 1 }).start();
    h.source.deals = makeDeals(6);
    h.source.pageSize = 2;
    h.service.invalidDateIds.add('d1').add('d5');
    await h.run('full');
    expect(await keys()).toEqual(['id:d1 date_create', 'id:d5 date_create']);
    h.service.invalidDateIds.clear();
    h.source.beforePage = (stream, index) => {
      if (stream === 'deals' && index === 2) void h.sync.shutdown(2000);
    };
    const stopped = await h.run('full');
    expect(stopped.status).toBe('interrupted');
    expect(await keys()).toEqual(['id:d5 date_create']);
  });
});
