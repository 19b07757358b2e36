import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createStoreDataSource, openStore, storeDataSourceOptions, StoreOptions } from '../../src/store/store-data-source';
import { STORE_MIGRATIONS } from '../../src/store/store-entities';
import { StoreRepositories } from '../../src/store/store-repositories';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

/** The last webhook call per connection: a store of the previous schema upgrades with its data, and the calls overwrite one row. */
describeStores('store: webhook calls', (driver) => {
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

  it('upgrades a store of the previous schema (its connections kept) and keeps one row per connection: the last call, the last accepted', async () => {
    // the schema before it: a later migration changes its table too (RowProjects)
    const before = STORE_MIGRATIONS.slice(0, STORE_MIGRATIONS.findIndex((m) => m.name === 'WebhookCalls1764730000000'));
    let ds = await openStore({ ...storeDataSourceOptions(options), migrations: before });
    await sql(ds, 'INSERT INTO connection (id, connector, settings, paused, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      ['amo', 'generic-crm', '{}', false, '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.000Z']);
    await ds.destroy();

    ds = await createStoreDataSource(options);
    expect((await ds.query('SELECT id FROM connection')).map((r: { id: string }) => r.id)).toEqual(['amo']);
    const calls = new StoreRepositories(ds).webhookCalls;
    const at = (s: string) => new Date(`2026-11-27T10:00:${s}.000Z`);
    await calls.record({ connectionId: 'amo', at: at('01'), outcome: 'accepted', acceptedAt: at('01') });
    await calls.record({ connectionId: 'amo', at: at('02'), outcome: 'refused', acceptedAt: null });
    await calls.record({ connectionId: 'pd', at: at('03'), outcome: 'paused', acceptedAt: null });
    expect((await calls.list()).map((r) => ({ ...r }))).toEqual([
      { connection_id: 'amo', last_call_at: at('02').toISOString(), last_outcome: 'refused', last_accepted_at: at('01').toISOString(), project: null },
      { connection_id: 'pd', last_call_at: at('03').toISOString(), last_outcome: 'paused', last_accepted_at: '', project: null },
    ]);
    await ds.destroy();
  });
});
