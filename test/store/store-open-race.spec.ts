import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DataSource } from 'typeorm';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { STORE_MIGRATIONS } from '../../src/store/store-entities';

/**
 * A daemon and a CLI (or two CLIs) first opening one fresh SQLite file at once: without a lock both found no
 * migration done and both created the tables ("table already exists", SQLITE_BUSY).
 */
describe('opening one fresh SQLite store from several connections at once', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('every opener gets the store, migrated once', async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-race-'));
      dirs.push(dataDir);
      const opened = await Promise.allSettled([0, 1, 2].map(() => createStoreDataSource({ dataDir })));
      const stores = opened.filter((r): r is PromiseFulfilledResult<DataSource> => r.status === 'fulfilled').map((r) => r.value);
      try {
        expect(opened.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
        const done = await stores[0].query('SELECT name FROM migrations ORDER BY id');
        expect(done.map((row: { name: string }) => row.name)).toEqual(STORE_MIGRATIONS.map((m) => (m as { name: string }).name));
        expect(fs.readdirSync(dataDir).filter((name) => name.endsWith('.open-lock'))).toEqual([]); // released
      } finally {
        await Promise.all(stores.map((store) => store.destroy()));
      }
    }
  });
});
