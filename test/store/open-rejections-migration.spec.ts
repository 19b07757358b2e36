import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createStoreDataSource, openStore, storeDataSourceOptions, StoreOptions } from '../../src/store/store-data-source';
import { STORE_MIGRATIONS } from '../../src/store/store-entities';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

/** A store made before the open-rejection set: upgrading must not hide what is still rejected. */
describeStores('store: the open-rejections migration', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-test-'));
    ({ options, cleanup } = await storeOptionsFor(driver, dir));
  });
  afterEach(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fills the set from the unresolved run-level rejections: latest reason, earliest first_seen per record', async () => {
    const before = STORE_MIGRATIONS.filter((m) => m.name !== 'OpenRejections1764000000000');
    let ds = await openStore({ ...storeDataSourceOptions(options), migrations: before });
    const insert =
      'INSERT INTO rejected_record (run_id, connection_id, stream, external_id, field, reason, ref, excerpt, source, fingerprint, resolved, created_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, ?, ?)';
    const t1 = '2026-11-20T10:00:00.000Z';
    const t2 = '2026-11-21T10:00:00.000Z';
    await sql(ds, insert, [1, 'sheet', 'deals', 'd1', 'price', '"abc" is not a number', 'deals.csv row 2', 'check', false, t1]);
    await sql(ds, insert, [1, 'sheet', 'deals', '', 'id', 'is empty', 'deals.csv row 11', 'connector', false, t1]);
    await sql(ds, insert, [2, 'sheet', 'deals', 'd1', 'price', '"abd" is not a number', 'deals.csv row 2', 'check', false, t2]);
    await sql(ds, insert, [2, 'sheet', 'deals', 'd1', 'fields.comment', 'has 1001 symbols, at most 1000 allowed', 'deals.csv row 2', 'check', false, t2]);
    await sql(ds, insert, [2, 'sheet', 'deals', 'd5', 'price', 'fixed since', 'deals.csv row 6', 'service', true, t2]);
    await ds.destroy();

    ds = await createStoreDataSource(options);
    const rows = await ds.query('SELECT record_key, field, external_id, reason, ref, first_seen, last_seen, last_run_id FROM open_rejection ORDER BY record_key, field');
    expect(rows.map((r: Record<string, unknown>) => ({ ...r, last_run_id: Number(r.last_run_id) }))).toEqual([
      { record_key: 'id:d1', field: 'fields.comment', external_id: 'd1', reason: 'has 1001 symbols, at most 1000 allowed', ref: 'deals.csv row 2', first_seen: t1, last_seen: t2, last_run_id: 2 },
      { record_key: 'id:d1', field: 'price', external_id: 'd1', reason: '"abd" is not a number', ref: 'deals.csv row 2', first_seen: t1, last_seen: t2, last_run_id: 2 },
      { record_key: 'ref:deals.csv row 11', field: 'id', external_id: '', reason: 'is empty', ref: 'deals.csv row 11', first_seen: t1, last_seen: t1, last_run_id: 1 },
    ]);
    await ds.destroy();
  });
});
