import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { toRunResponse } from '../../src/application/answers/run.response';
import { summaryFromRun } from '../../src/engine/run/run-summary';
import { createStoreDataSource, openStore, storeDataSourceOptions, StoreOptions } from '../../src/store/store-data-source';
import { STORE_MIGRATIONS } from '../../src/store/store-entities';
import { StoreRepositories } from '../../src/store/store-repositories';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

describeStores('store: outbound runs (direction, flow, flow_counters)', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  let ds: DataSource | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbound-runs-'));
    ({ options, cleanup } = await storeOptionsFor(driver, dir));
  });
  afterEach(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('upgrades a store whose write-back runs kept their counters in run.write_back: they read as outbound runs of flow write_back', async () => {
    const before = STORE_MIGRATIONS.filter((m) => m.name !== 'OutboundRuns1764800000000');
    const old = await openStore({ ...storeDataSourceOptions(options), migrations: before });
    const insert = "INSERT INTO run (connection_id, mode, since, trigger, holder, started_at, finished_at, status, streams, error, write_back) VALUES (?, ?, NULL, 'cli', 'h', ?, ?, 'succeeded', '{}', NULL, ?)";
    await sql(old, insert, ['amo', 'incremental', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:05.000Z', null]);
    await sql(old, insert, ['amo', 'write_back', '2026-11-20T10:00:06.000Z', '2026-11-20T10:00:07.000Z', '{"attributed":3,"written":2,"unchanged":1,"rejected":0}']);
    await old.destroy();

    ds = await createStoreDataSource(options);
    const { rows } = await new StoreRepositories(ds).runs.page({}, { limit: 10, offset: 0 });
    const [writeBack, sync] = rows; // newest first
    const counters = { attributed: 3, written: 2, unchanged: 1, rejected: 0 };
    expect(toRunResponse(writeBack, 0)).toMatchObject({ mode: 'write_back', direction: 'outbound', flow: 'write_back', flow_counters: counters, write_back: counters });
    expect(toRunResponse(sync, 0)).toMatchObject({ mode: 'incremental', direction: 'sync', flow: null, flow_counters: null, write_back: null });
    expect(summaryFromRun(writeBack, { total: 0, first: [] })).toMatchObject({ direction: 'outbound', flow: 'write_back', flowCounters: counters, writeBack: counters });
  });

  it('a new run records its direction and flow from its mode', async () => {
    ds = await createStoreDataSource(options);
    const stores = new StoreRepositories(ds);
    const sync = await stores.runs.create({ connectionId: 'amo', mode: 'full', since: null, trigger: 'webhook', holder: 'h' });
    const flow = await stores.runs.create({ connectionId: 'amo', mode: 'write_back', since: null, trigger: 'schedule', holder: 'h' });
    await stores.outbound.recordCounters(flow.id, { attributed: 1, written: 1, unchanged: 0, rejected: 0 });
    expect(await stores.runs.get(sync.id)).toMatchObject({ direction: 'sync', flow: null, trigger: 'webhook', flow_counters: null });
    expect(await stores.runs.get(flow.id)).toMatchObject({ direction: 'outbound', flow: 'write_back', flow_counters: { attributed: 1, written: 1, unchanged: 0, rejected: 0 } });
  });
});
