import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { createStoreDataSource, STORE_FILE } from '../../src/store/store-data-source';
import { StoreModule } from '../../src/store/store.module';
import { RunEntity } from '../../src/store/entities/run.entity';
import { ConnectionEntity } from '../../src/store/entities/connection.entity';

const TABLES = ['connection', 'cursor', 'lease', 'record_state', 'rejected_record', 'run', 'stream_state'];

describe('store', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'store-test-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs its migrations on a fresh file, in WAL mode, and only once', async () => {
    let ds: DataSource = await createStoreDataSource({ dataDir: join(dir, 'nested') });
    const tables = (await ds.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)).map((r: { name: string }) => r.name);
    expect(tables).toEqual(expect.arrayContaining([...TABLES, 'migrations']));
    expect((await ds.query('PRAGMA journal_mode'))[0].journal_mode).toBe('wal');
    expect(ds.options.database).toBe(join(dir, 'nested', STORE_FILE));
    await ds.destroy();
    ds = await createStoreDataSource({ dataDir: join(dir, 'nested') });
    const migrations = await ds.query('SELECT name FROM migrations');
    expect(migrations.map((m: { name: string }) => m.name)).toEqual(['InitialSchema1763800000000']);
    await ds.destroy();
  });

  it('entities round-trip: JSON columns, booleans, defaults of the counters', async () => {
    const ds = await createStoreDataSource({ dataDir: dir });
    const now = new Date().toISOString();
    await ds.getRepository(ConnectionEntity).insert({ id: 'c1', connector: 'memory', settings: { url: 'x', api_key: '***' }, schedule: null, paused: true, created_at: now, updated_at: now });
    const run = await ds.getRepository(RunEntity).save({
      connection_id: 'c1', mode: 'incremental', since: null, trigger: 'cli', holder: 'h', started_at: now, finished_at: null, status: 'running',
      streams: { deals: { read: 1, unchanged: 0, sent: 1, rejected: 0, sent_without_visit: 1 } }, error: null,
    });
    const loaded = await ds.getRepository(RunEntity).findOneByOrFail({ id: run.id });
    expect(loaded.streams.deals).toEqual({ read: 1, unchanged: 0, sent: 1, rejected: 0, sent_without_visit: 1 });
    expect(loaded.skipped_by_invalid_format).toBe(0);
    expect((await ds.getRepository(ConnectionEntity).findOneByOrFail({ id: 'c1' })).paused).toBe(true);
    await ds.destroy();
  });

  it('record_state is unique on (connection, stream, external id)', async () => {
    const ds = await createStoreDataSource({ dataDir: dir });
    const row = ['c1', 'deals', 'd1', 'p:x', new Date().toISOString()];
    const sql = 'INSERT INTO record_state (connection_id, stream, external_id, fingerprint, acknowledged_at) VALUES (?, ?, ?, ?, ?)';
    await ds.query(sql, row);
    await expect(ds.query(sql, row)).rejects.toThrow(/UNIQUE/);
    await ds.destroy();
  });

  it('a database url is refused for now, without showing its password', async () => {
    await expect(createStoreDataSource({ dataDir: dir, url: 'postgres://u:secret@db/x' })).rejects.toThrow(/postgres:\/\/\*\*\*@db\/x is not supported yet/);
  });

  it('StoreModule.forRoot gives Nest the default DataSource, migrated', async () => {
    @Module({ imports: [StoreModule.forRoot({ dataDir: dir })] })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const ds = app.get(DataSource);
    expect(ds.isInitialized).toBe(true);
    expect(await ds.query('SELECT COUNT(*) AS n FROM run')).toEqual([{ n: 0 }]);
    await app.close();
  });
});
