import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { createStoreDataSource, STORE_FILE, StoreOptions } from '../../src/store/store-data-source';
import { StoreModule } from '../../src/store/store.module';
import { RunEntity } from '../../src/store/entities/run.entity';
import { ConnectionEntity } from '../../src/store/entities/connection.entity';
import { DaemonEntity } from '../../src/store/entities/daemon.entity';
import { LeaseEntity } from '../../src/store/entities/lease.entity';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

const TABLES = ['alert_delivery', 'alert_state', 'connection', 'connector_secret', 'cursor', 'daemon', 'lead_delivery', 'lease', 'open_rejection', 'rate_limits', 'record_state', 'rejected_record', 'run', 'stream_state', 'webhook_call'];
const MIGRATIONS = ['InitialSchema1763800000000', 'ClusterSchema1763900000000', 'OpenRejections1764000000000', 'WriteBack1764400000000', 'Alerts1764500000000', 'RequestBudget1764600000000', 'ConnectorSecrets1764600000001', 'WebhookCalls1764730000000', 'OutboundRuns1764800000000', 'LeadDelivery1764900000029', 'RateLimits1765000000000', 'ConnectionTarget1765100000000', 'AlertDeliveryState1765200000000', 'RowProjects1765300000000'];

async function tablesOf(ds: DataSource): Promise<string[]> {
  const rows: { name: string }[] =
    ds.options.type === 'postgres'
      ? await ds.query(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`)
      : await ds.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`);
  return rows.map((r) => r.name);
}

describeStores('store', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-test-'));
    ({ options, cleanup } = await storeOptionsFor(driver, join(dir, 'nested')));
  });
  afterEach(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs its migrations on a fresh store, and only once', async () => {
    let ds = await createStoreDataSource(options);
    expect(await tablesOf(ds)).toEqual(expect.arrayContaining([...TABLES, 'migrations']));
    if (driver === 'sqlite') {
      expect((await ds.query('PRAGMA journal_mode'))[0].journal_mode).toBe('wal');
      expect(ds.options.database).toBe(join(dir, 'nested', STORE_FILE));
    } else {
      expect(ds.options.type).toBe('postgres');
    }
    await ds.destroy();
    ds = await createStoreDataSource(options);
    const migrations = await ds.query('SELECT name FROM migrations ORDER BY id');
    expect(migrations.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS);
    await ds.destroy();
  });

  it('entities round-trip: JSON columns, booleans, defaults of the counters, generated ids', async () => {
    const ds = await createStoreDataSource(options);
    const now = new Date().toISOString();
    await ds.getRepository(ConnectionEntity).insert({ id: 'c1', connector: 'memory', settings: { url: 'x', api_key: '***' }, schedule: null, paused: true, created_at: now, updated_at: now });
    const run = await ds.getRepository(RunEntity).save({
      connection_id: 'c1', mode: 'incremental', since: null, trigger: 'cli', holder: 'h', started_at: now, finished_at: null, status: 'running',
      streams: { deals: { read: 1, unchanged: 0, sent: 1, rejected: 0, sent_without_visit: 1 } }, error: null,
    });
    const { id: firstId, ...copy } = run;
    const second = await ds.getRepository(RunEntity).save(copy);
    expect(firstId).toBe(run.id);
    expect(second.id).toBe(run.id + 1);
    const loaded = await ds.getRepository(RunEntity).findOneByOrFail({ id: run.id });
    expect(loaded.streams.deals).toEqual({ read: 1, unchanged: 0, sent: 1, rejected: 0, sent_without_visit: 1 });
    expect(loaded.skipped_by_invalid_format).toBe(0);
    const connection = await ds.getRepository(ConnectionEntity).findOneByOrFail({ id: 'c1' });
    expect(connection.paused).toBe(true);
    expect(connection.settings).toEqual({ url: 'x', api_key: '***' });
    await ds.destroy();
  });

  it('daemon rows and the lease slot column (cluster migration)', async () => {
    const ds = await createStoreDataSource(options);
    const now = new Date().toISOString();
    await ds.getRepository(DaemonEntity).save({ id: 'm~1:1:a', host: 'm', pid: 1, started_at: now, heartbeat_at: now, running: [{ connection_id: 'c1', run_id: 7 }] });
    expect((await ds.getRepository(DaemonEntity).findOneByOrFail({ id: 'm~1:1:a' })).running).toEqual([{ connection_id: 'c1', run_id: 7 }]);
    await ds.getRepository(LeaseEntity).insert({ connection_id: 'c1', holder: '', run_id: null, expires_at: now, last_slot: '2025-03-10T09:01:00.000Z' });
    expect((await ds.getRepository(LeaseEntity).findOneByOrFail({ connection_id: 'c1' })).last_slot).toBe('2025-03-10T09:01:00.000Z');
    await ds.destroy();
  });

  it('record_state is unique on (connection, stream, external id)', async () => {
    const ds = await createStoreDataSource(options);
    const row = ['c1', 'deals', 'd1', 'p:x', new Date().toISOString()];
    const insert = 'INSERT INTO record_state (connection_id, stream, external_id, fingerprint, acknowledged_at) VALUES (?, ?, ?, ?, ?)';
    await sql(ds, insert, row);
    await expect(sql(ds, insert, row)).rejects.toThrow(/UNIQUE|duplicate key/);
    await ds.destroy();
  });

  it('StoreModule.forRoot gives Nest the default DataSource, migrated', async () => {
    @Module({ imports: [StoreModule.forRoot(options)] })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const ds = app.get(DataSource);
    expect(ds.isInitialized).toBe(true);
    expect(ds.options.type).toBe(driver);
    const rows = await ds.query('SELECT COUNT(*) AS n FROM run');
    expect(Number(rows[0].n)).toBe(0);
    await app.close();
  });

  if (driver === 'postgres') {
    it('several daemons opening an empty database at once: one migrates, the others wait (advisory lock)', async () => {
      const stores = await Promise.all([1, 2, 3].map(() => createStoreDataSource(options)));
      const migrations = await stores[0].query('SELECT name FROM migrations ORDER BY id');
      expect(migrations.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS);
      await Promise.all(stores.map((s) => s.destroy()));
    });
  }
});

describe('store url', () => {
  it('only postgres:// URLs are accepted; the message hides the password', async () => {
    await expect(createStoreDataSource({ dataDir: tmpdir(), url: 'mysql://u:secret@db/x' })).rejects.toThrow(
      /store.url mysql:\/\/u:\*\*\*@db\/x: only postgres:\/\/ or postgresql:\/\//,
    );
  });

  it('an unreachable PostgreSQL fails with a message naming it, without the password', async () => {
    const error = await createStoreDataSource({ dataDir: tmpdir(), url: 'postgresql://u:secret@127.0.0.1:1/x?connect_timeout=2' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/store: cannot open PostgreSQL postgresql:\/\/u:\*\*\*@127.0.0.1:1\/x/);
    expect((error as Error).message).not.toContain('secret');
  });
});
