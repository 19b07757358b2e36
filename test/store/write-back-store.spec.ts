import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { toRunResponse } from '../../src/application/answers/run.response';
import { RecordStateStore } from '../../src/store/repositories/record-state.store';
import { createStoreDataSource, openStore, storeDataSourceOptions, StoreOptions } from '../../src/store/store-data-source';
import { STORE_MIGRATIONS } from '../../src/store/store-entities';
import { StoreRepositories } from '../../src/store/store-repositories';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

describeStores('store: write-back', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  let ds: DataSource | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'write-back-store-'));
    ({ options, cleanup } = await storeOptionsFor(driver, dir));
  });
  afterEach(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('upgrades a store of the previous schema: its runs keep their rows, with no write-back counters', async () => {
    const before = STORE_MIGRATIONS.filter((m) => m.name !== 'WriteBack1764400000000');
    const old = await openStore({ ...storeDataSourceOptions(options), migrations: before });
    await sql(old, "INSERT INTO run (connection_id, mode, since, trigger, holder, started_at, finished_at, status, streams, error) VALUES (?, 'incremental', NULL, 'cli', 'h', ?, ?, 'succeeded', '{}', NULL)", [
      'amo', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:05.000Z',
    ]);
    await old.destroy();
    ds = await createStoreDataSource(options);
    const [run] = (await new StoreRepositories(ds).runs.page({}, { limit: 10, offset: 0 })).rows;
    expect(run).toMatchObject({ connection_id: 'amo', status: 'succeeded', write_back: null });
    expect(toRunResponse(run, 0).write_back).toBeNull();
  });

  it('records each answered batch in one go: fingerprints of the written deals, refusals as rejected records, the counters', async () => {
    ds = await createStoreDataSource(options);
    const stores = new StoreRepositories(ds);
    await ds.transaction((m) => RecordStateStore.upsert(m, 'amo', 'deals', [{ externalId: 'd1', fingerprint: 'p1:a' }, { externalId: 'd2', fingerprint: 'p1:b' }], '2026-11-20T10:00:00.000Z'));
    expect([...(await stores.writeBack.knownDeals('amo', ['d1', 'd2', 'd9']))].sort()).toEqual(['d1', 'd2']);
    expect(await stores.writeBack.knownDeals('other', ['d1'])).toEqual(new Set());

    const run = await stores.runs.create({ connectionId: 'amo', mode: 'write_back', since: null, trigger: 'cli', holder: 'h' });
    const counters = { attributed: 2, written: 1, unchanged: 0, rejected: 1 };
    await stores.writeBack.recordBatch({
      runId: run.id, connectionId: 'amo', counters,
      written: [{ externalId: 'd1', fingerprint: 'w1:x' }],
      rejected: [{ externalId: 'd2', field: 'write_back', reason: 'the CRM refused the update: deal is locked', fingerprint: 'w1:y' }],
    });
    expect(await stores.writeBack.fingerprints('amo', ['d1', 'd2'])).toEqual(new Map([['d1', 'w1:x']])); // a refusal is tried again
    expect((await stores.recordStates.fingerprints('amo', 'deals', ['d1'])).get('d1')).toBe('p1:a'); // the sync's own untouched
    const stored = (await stores.runs.get(run.id))!;
    expect(stored.write_back).toEqual(counters);
    expect(toRunResponse(stored, 1)).toMatchObject({ mode: 'write_back', write_back: counters });
    const { rows } = await stores.rejected.pageOf(run.id, { limit: 10, offset: 0 });
    expect(rows.map((r) => [r.stream, r.external_id, r.field, r.reason, r.fingerprint])).toEqual([
      ['write_back', 'd2', 'write_back', 'the CRM refused the update: deal is locked', 'w1:y'],
    ]);
  });

  it('tells how many deals a connection synced since a moment, and which when they are few (a write-back plan)', async () => {
    ds = await createStoreDataSource(options);
    const stores = new StoreRepositories(ds);
    const ack = (connection: string, ids: string[], at: string) =>
      ds!.transaction((m) => RecordStateStore.upsert(m, connection, 'deals', ids.map((externalId) => ({ externalId, fingerprint: 'p1' })), at));
    await ack('amo', ['old1', 'old2'], '2026-10-01T00:00:00.000Z');
    await ack('amo', ['d3', 'd1', 'd2'], '2026-11-20T10:00:00.000Z');
    await ack('amo', ['old2'], '2026-11-21T10:00:00.000Z'); // acknowledged again later: counts since then
    await ack('other', ['x1'], '2026-11-21T10:00:00.000Z');
    await ds.transaction((m) => RecordStateStore.upsert(m, 'amo', 'clients', [{ externalId: 'c1', fingerprint: 'p1' }], '2026-11-21T10:00:00.000Z'));
    const since = new Date('2026-11-20T10:00:00.000Z');
    expect(await stores.outbound.acknowledgedSince('amo', 'deals', since, 10)).toEqual({ count: 4, ids: ['d1', 'd2', 'd3', 'old2'] });
    expect(await stores.outbound.acknowledgedSince('amo', 'deals', since, 3)).toEqual({ count: 4, ids: null });
    expect(await stores.outbound.acknowledgedSince('amo', 'deals', new Date('2026-12-01T00:00:00.000Z'), 10)).toEqual({ count: 0, ids: [] });
  });
});
