import { dirname, join } from 'path';
import * as sqlite3 from 'sqlite3';
import * as lockfile from 'proper-lockfile';
import { DataSource, DataSourceOptions } from 'typeorm';
import { createPrivateFile, makePrivateDir } from '../config/private-files';
import { redactUrl } from '../config/redact';
import { beginSqliteTransactionsAsWriters } from './sqlite-write-transactions';
import { STORE_ENTITIES, STORE_MIGRATIONS } from './store-entities';

export interface StoreOptions {
  /** folder of the daemon's files; the SQLite store is `<dataDir>/tracker-sync.sqlite` */
  dataDir: string;
  /**
   * a PostgreSQL URL (postgres:// or postgresql://) shared by several daemons; absent: SQLite under dataDir.
   * Connection parameters ride along, e.g. `?options=-c%20search_path%3Dother_schema` or `?sslmode=require`.
   */
  url?: string;
}

export const STORE_FILE = 'tracker-sync.sqlite';

/** Any number: the key of the advisory lock that lets one daemon at a time migrate a PostgreSQL store. */
const MIGRATION_LOCK_KEY = 7_310_482_915;

/** TypeORM options of the store. The one place that picks the driver; entities and migrations serve both. */
export function storeDataSourceOptions(options: StoreOptions): DataSourceOptions {
  return options.url ? postgresOptions(options.url) : sqliteOptions(options.dataDir);
}

function sqliteOptions(dataDir: string): DataSourceOptions {
  makePrivateDir(dataDir);
  // owner-only before SQLite opens it (it would create it 0644), and so its -wal and -shm: records and CRM tokens are in it
  createPrivateFile(join(dataDir, STORE_FILE));
  return {
    type: 'sqlite',
    database: join(dataDir, STORE_FILE),
    entities: STORE_ENTITIES,
    migrations: STORE_MIGRATIONS,
    migrationsRun: false, // openStore runs them (one place for both drivers)
    synchronize: false,
    enableWAL: true,
    // TypeORM calls sqlite3.verbose(), which wraps every call to record a stack trace (~7 % of a sync's CPU)
    driver: { verbose: () => sqlite3 },
    // two processes on one file: wait for the other's write instead of failing at once (with transactions
    // begun as writers, sqlite-write-transactions.ts: a deferred one that read first fails at once anyway)
    busyTimeout: 10_000,
    logging: false,
  };
}

function postgresOptions(url: string): DataSourceOptions {
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    throw new Error(`store.url ${redactUrl(url)}: only postgres:// or postgresql:// URLs are supported (leave it out for SQLite under data_dir)`);
  }
  return {
    type: 'postgres',
    url,
    entities: STORE_ENTITIES,
    migrations: STORE_MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
    applicationName: 'tracker-sync',
    // one writer queue, fingerprint lookups of the runs going, admin API reads: pg's default pool of 10
    extra: { max: 10, connectionTimeoutMillis: 15_000 },
  };
}

/** Opens (and migrates) the store; the caller destroys it. */
export async function createStoreDataSource(options: StoreOptions): Promise<DataSource> {
  return openStore(storeDataSourceOptions(options));
}

/** Initializes a DataSource made from storeDataSourceOptions: connect, migrate, tune. */
export async function openStore(options: DataSourceOptions): Promise<DataSource> {
  return withSqliteFileLock(options, () => connectAndMigrate(options));
}

async function connectAndMigrate(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = new DataSource(options);
  try {
    await dataSource.initialize();
    beginSqliteTransactionsAsWriters(dataSource);
  } catch (e) {
    throw new Error(`store: cannot open ${describeStore(options)}: ${(e as Error).message}`);
  }
  try {
    await migrate(dataSource);
    await tuneSqlite(dataSource);
  } catch (e) {
    await dataSource.destroy().catch(() => undefined);
    throw e;
  }
  return dataSource;
}

/**
 * Runs pending migrations. On PostgreSQL several daemons may start at once against an empty database:
 * a session advisory lock lets one migrate while the others wait, then find nothing left to do.
 */
async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations({ transaction: 'all' });
    return;
  }
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'all' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}

/**
 * Two processes opening one fresh SQLite file at once (a daemon and a CLI, two CLIs) would both find no
 * migration done and both create the tables: the second fails with "table already exists" or SQLITE_BUSY.
 * A lock file beside the database lets one open and migrate while the others wait, then find nothing left
 * to do; a lock left by a crashed process goes stale after a few seconds (its owner stops refreshing it).
 */
async function withSqliteFileLock<T>(options: DataSourceOptions, body: () => Promise<T>): Promise<T> {
  const database = options.type === 'sqlite' ? String(options.database) : ':memory:';
  if (database === ':memory:' || database === '') return body();
  makePrivateDir(dirname(database));
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(database, {
      realpath: false, // the database file may not exist yet
      lockfilePath: `${database}.open-lock`,
      stale: 10_000,
      retries: { retries: 120, factor: 1.2, minTimeout: 50, maxTimeout: 500 },
    });
  } catch (e) {
    throw new Error(`store: cannot open SQLite ${database}: another process holds ${database}.open-lock (${(e as Error).message})`);
  }
  try {
    return await body();
  } finally {
    await release().catch(() => undefined);
  }
}

/** WAL makes readers and one writer coexist; NORMAL sync is durable across process crashes in WAL mode. */
export async function tuneSqlite(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'sqlite') return;
  await dataSource.query('PRAGMA synchronous=NORMAL');
}

function describeStore(options: DataSourceOptions): string {
  if (options.type === 'postgres') return `PostgreSQL ${redactUrl(options.url ?? '')}`;
  return `SQLite ${String(options.database)}`;
}
