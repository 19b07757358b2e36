import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { RunCountersResponse, toRunResponse } from '../../src/application/answers/run.response';
import { SERVICE_COUNTER_ORDER } from '../../src/cli/output/run-summary.format';
import { RunStore } from '../../src/store/repositories/run.store';
import { SERVICE_COUNTER_KEYS } from '../../src/runs/run-vocabulary';
import { StoreRepositories } from '../../src/store/store-repositories';
import { STATUS_PAGE_SCRIPT } from '../../src/status-page/status-page.script';
import { ADD_ORDERS_COUNTER_MEANINGS, AddOrdersCounters } from '../../src/tracker/types/orders.types';
import { describeStores, storeOptionsFor } from '../support/store-drivers';
import { createStoreDataSource } from '../../src/store/store-data-source';

/** The add-orders counters as the service's spec names them (what every place of the daemon must show). */
const SPEC_COUNTERS: (keyof AddOrdersCounters)[] = [
  'uploaded', 'processed', 'skipped_by_status', 'skipped_by_waiting_visit_info', 'skipped_by_internal_error',
  'skipped_because_not_changed', 'skipped_by_invalid_format', 'skipped_fields_by_invalid_format', 'saved',
];

describe('the one list of add-orders counters', () => {
  it('names each counter of the service answer once, with what it means', () => {
    expect([...SERVICE_COUNTER_KEYS].sort()).toEqual([...SPEC_COUNTERS].sort());
    expect(new Set(SERVICE_COUNTER_KEYS).size).toBe(SERVICE_COUNTER_KEYS.length);
    for (const key of SERVICE_COUNTER_KEYS) expect(ADD_ORDERS_COUNTER_MEANINGS[key]).toMatch(/\w{3}/);
  });

  it('drives the admin API schema, the CLI order and the status page', () => {
    const documented = Reflect.getMetadata('swagger/apiModelPropertiesArray', RunCountersResponse.prototype) as string[];
    expect(documented).toEqual(SERVICE_COUNTER_KEYS.map((key) => `:${key}`));
    expect([...SERVICE_COUNTER_ORDER].sort()).toEqual([...SPEC_COUNTERS].sort());
    expect(SERVICE_COUNTER_ORDER.slice(0, 6).every((key) => key.startsWith('skipped_'))).toBe(true);
    for (const key of SPEC_COUNTERS) expect(STATUS_PAGE_SCRIPT).toContain(JSON.stringify(key));
  });
});

describeStores('run rows keep every add-orders counter', (driver) => {
  let dir: string;
  let ds: DataSource;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'run-counters-'));
    const store = await storeOptionsFor(driver, dir);
    cleanup = store.cleanup;
    ds = await createStoreDataSource(store.options);
  });
  afterEach(async () => {
    await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes and reads back each counter in its own column, and the admin API shows them all', async () => {
    const runs: RunStore = new StoreRepositories(ds).runs;
    const columns = ds.getMetadata('run').columns.map((c) => c.databaseName);
    expect(columns).toEqual(expect.arrayContaining(SPEC_COUNTERS));
    const run = await runs.create({ connectionId: 'c', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    const counters = Object.fromEntries(SPEC_COUNTERS.map((key, i) => [key, i + 1])) as unknown as AddOrdersCounters;
    await ds.transaction((m) => RunStore.writeCounters(m, run.id, {}, counters));
    const stored = (await runs.get(run.id))!;
    for (const key of SPEC_COUNTERS) expect(stored[key]).toBe(counters[key]);
    expect(toRunResponse(stored, 0).counters).toEqual(counters);
  });
});
