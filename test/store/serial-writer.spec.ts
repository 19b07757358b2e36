import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource, Logger } from 'typeorm';
import { Checkpoint, writeCheckpoint } from '../../src/store/checkpoint-writer';
import { SERVICE_COUNTER_KEYS, ServiceCounters } from '../../src/engine/engine-types';
import { RecordStateStore } from '../../src/store/repositories/record-state.store';
import { SerialWriter } from '../../src/store/serial-writer';
import { openStore, storeDataSourceOptions, StoreOptions } from '../../src/store/store-data-source';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

/** Records the statements the store runs (TypeORM's logger hook), to count commits. */
class StatementLog implements Logger {
  readonly statements: string[] = [];
  logQuery(query: string): void {
    this.statements.push(query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
  get transactions(): number {
    return this.statements.filter((q) => /^(BEGIN|START TRANSACTION)/i.test(q)).length;
  }
}

describeStores('serial writer', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  let ds: DataSource;
  let log: StatementLog;
  let writer: SerialWriter;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'serial-writer-'));
    ({ options, cleanup } = await storeOptionsFor(driver, dir));
    log = new StatementLog();
    ds = await openStore({ ...storeDataSourceOptions(options), logging: ['query'], logger: log });
    writer = new SerialWriter(ds);
  });
  afterEach(async () => {
    await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const fingerprint = (id: string) =>
    sql<{ fingerprint: string }[]>(ds, `SELECT fingerprint FROM record_state WHERE connection_id = 'c' AND stream = 'deals' AND external_id = ?`, [id])
      .then((rows) => rows[0]?.fingerprint ?? null);
  const acknowledge = (id: string, value: string) => (m: Parameters<Parameters<SerialWriter['transaction']>[0]>[0]) =>
    RecordStateStore.upsert(m, 'c', 'deals', [{ externalId: id, fingerprint: value }], new Date().toISOString()).then(() => id);

  it('transactions queued while a write runs share one commit, in queue order, each with its own result', async () => {
    const before = log.transactions;
    const first = writer.transaction(acknowledge('d1', 'v1'));
    const queued = ['d2', 'd3', 'd4', 'd2'].map((id, i) => writer.transaction(acknowledge(id, `v${i + 2}`)));
    expect(await first).toBe('d1');
    expect(await Promise.all(queued)).toEqual(['d2', 'd3', 'd4', 'd2']);
    expect(log.transactions - before).toBe(2); // the first alone, the four queued behind it together
    expect(await fingerprint('d2')).toBe('v5'); // the later write of d2 wins: queue order kept
    expect(await fingerprint('d4')).toBe('v4');
  });

  it('a failing transaction in a shared commit fails alone: the others are written, nothing of it is', async () => {
    const first = writer.transaction(acknowledge('d1', 'v1'));
    const good = writer.transaction(acknowledge('d2', 'v2'));
    const bad = writer.transaction(async (m) => {
      await acknowledge('d3', 'v3')(m);
      throw new Error('disk says no');
    });
    const after = writer.transaction(acknowledge('d4', 'v4'));
    await first;
    await expect(bad).rejects.toThrow('disk says no');
    expect(await good).toBe('d2');
    expect(await after).toBe('d4');
    expect(await fingerprint('d2')).toBe('v2');
    expect(await fingerprint('d3')).toBeNull();
    expect(await fingerprint('d4')).toBe('v4');
    // the writer goes on after the failure
    await writer.transaction(acknowledge('d5', 'v5'));
    expect(await fingerprint('d5')).toBe('v5');
  });

  it('a checkpoint built when its turn comes is built once, even when its shared commit fails and is retried', async () => {
    const first = writer.transaction(acknowledge('d1', 'v1'));
    let builds = 0;
    const counters = Object.fromEntries(SERVICE_COUNTER_KEYS.map((key) => [key, 0])) as unknown as ServiceCounters;
    const lazy = writeCheckpoint(writer, (): Checkpoint => {
      builds++;
      return {
        runId: 1, connectionId: 'c', stream: 'deals', acknowledged: [{ externalId: 'd2', fingerprint: `built-${builds}` }],
        rejections: [], streams: {}, counters, resolveRejections: false,
      };
    });
    const bad = writer.transaction(async () => {
      throw new Error('disk says no');
    });
    await first;
    await expect(bad).rejects.toThrow('disk says no');
    const written = await lazy;
    expect(builds).toBe(1);
    expect(written.acknowledged).toEqual([{ externalId: 'd2', fingerprint: 'built-1' }]);
    expect(await fingerprint('d2')).toBe('built-1');
    expect(log.transactions).toBeGreaterThanOrEqual(3); // the first, the failed shared commit, the checkpoint alone
  });

  it('a single statement (run) is never folded into a shared transaction, and keeps its place in the queue', async () => {
    const first = writer.transaction(acknowledge('d1', 'v1'));
    const a = writer.transaction(acknowledge('d2', 'v2'));
    const single = writer.run((m) => m.query(
      driver === 'postgres' ? `UPDATE record_state SET fingerprint = 'set-by-run' WHERE external_id = $1` : `UPDATE record_state SET fingerprint = 'set-by-run' WHERE external_id = ?`,
      ['d2'],
    ));
    const b = writer.transaction(acknowledge('d3', 'v3'));
    await Promise.all([first, a, single, b]);
    expect(await fingerprint('d2')).toBe('set-by-run');
    expect(await fingerprint('d3')).toBe('v3');
  });

  it('upsert writes thousands of fingerprints in one statement and updates them in place', async () => {
    const ids = Array.from({ length: 6000 }, (_, i) => `deal-${i}`);
    const at = new Date().toISOString();
    await writer.transaction((m) => RecordStateStore.upsert(m, 'c', 'deals', ids.map((id) => ({ externalId: id, fingerprint: `a:${id}` })), at));
    await writer.transaction((m) => RecordStateStore.upsert(m, 'c', 'deals', ids.slice(0, 10).map((id) => ({ externalId: id, fingerprint: 'b' })), at));
    const store = new RecordStateStore(ds);
    const found = await store.fingerprints('c', 'deals', [ids[0], ids[9], ids[10], ids[5999], 'missing']);
    expect(Object.fromEntries(found)).toEqual({ [ids[0]]: 'b', [ids[9]]: 'b', [ids[10]]: `a:${ids[10]}`, [ids[5999]]: `a:${ids[5999]}` });
    const [{ count }] = await sql<{ count: string | number }[]>(ds, 'SELECT COUNT(*) AS count FROM record_state');
    expect(Number(count)).toBe(6000);
    // ids with quotes and non-ASCII survive the JSON round trip
    await writer.transaction((m) => RecordStateStore.upsert(m, 'c', 'deals', [{ externalId: `o'brien "№1" \\`, fingerprint: 'q' }], at));
    expect(await fingerprint(`o'brien "№1" \\`)).toBe('q');
  });
});
