import { mkdirSync } from 'fs';
import { join } from 'path';
import * as sqlite3 from 'sqlite3';
import { DataSource, DataSourceOptions } from 'typeorm';
import { STORE_ENTITIES, STORE_MIGRATIONS } from './store-entities';

export interface StoreOptions {
  /** folder of the daemon's files; the SQLite store is `<dataDir>/tracker-sync.sqlite` */
  dataDir: string;
  /** a database URL (postgres://...) for several daemons on several machines; not supported yet */
  url?: string;
}

export const STORE_FILE = 'tracker-sync.sqlite';

/** TypeORM options of the store. The one place that picks the driver. */
export function storeDataSourceOptions(options: StoreOptions): DataSourceOptions {
  if (options.url) {
    // The switch point for PostgreSQL: the entities and migrations are portable, the driver is not wired yet.
    throw new Error(`store: database url ${redactUrl(options.url)} is not supported yet; only SQLite under data_dir`);
  }
  mkdirSync(options.dataDir, { recursive: true });
  return {
    type: 'sqlite',
    database: join(options.dataDir, STORE_FILE),
    entities: STORE_ENTITIES,
    migrations: STORE_MIGRATIONS,
    migrationsRun: true,
    synchronize: false,
    enableWAL: true,
    // TypeORM calls sqlite3.verbose(), which wraps every call to record a stack trace (~7 % of a sync's CPU)
    driver: { verbose: () => sqlite3 },
    // two processes on one file: wait for the other's write instead of failing at once
    busyTimeout: 10_000,
    logging: false,
  };
}

/** Opens (and migrates) the store; the caller destroys it. */
export async function createStoreDataSource(options: StoreOptions): Promise<DataSource> {
  const dataSource = new DataSource(storeDataSourceOptions(options));
  await dataSource.initialize();
  await tuneSqlite(dataSource);
  return dataSource;
}

/** WAL makes readers and one writer coexist; NORMAL sync is durable across process crashes in WAL mode. */
export async function tuneSqlite(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'sqlite') return;
  await dataSource.query('PRAGMA synchronous=NORMAL');
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
