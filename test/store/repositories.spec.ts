import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { CursorStore } from '../../src/store/repositories/cursor.store';
import { LeaseHolder } from '../../src/store/repositories/lease.store';
import { OpenRejectionStore } from '../../src/store/repositories/open-rejection.store';
import { RejectedRecordStore } from '../../src/store/repositories/rejected-record.store';
import { StoreRepositories } from '../../src/store/store-repositories';
import { NewRejection } from '../../src/store/checkpoint-writer';
import { describeStores, storeOptionsFor } from '../support/store-drivers';

/** The repositories beyond what the engine's and the admin API's specs drive: each against a real store. */
describeStores('store repositories', (driver) => {
  let dir: string;
  let ds: DataSource;
  let cleanup: () => Promise<void>;
  let store: StoreRepositories;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'repositories-'));
    const options = await storeOptionsFor(driver, dir);
    cleanup = options.cleanup;
    ds = await createStoreDataSource(options.options);
    store = new StoreRepositories(ds);
  });
  afterEach(async () => {
    await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const rejection = (runId: number, id: string, stream = 'deals'): NewRejection & { resolved: boolean; created_at: string } => ({
    run_id: runId, connection_id: 'c', stream, external_id: id, field: 'price', reason: 'not a number', ref: null, excerpt: null,
    source: 'check', fingerprint: null, resolved: false, created_at: new Date().toISOString(),
  });

  it('connections: upsert keeps one row per id, setPaused flips the flag', async () => {
    const row = { id: 'c', connector: 'memory', settings: {}, schedule: null, paused: false, created_at: 'a', updated_at: 'a' };
    await store.connections.upsert(row);
    await store.connections.upsert({ ...row, connector: 'spreadsheet', updated_at: 'b' });
    expect(await store.connections.all()).toEqual([expect.objectContaining({ id: 'c', connector: 'spreadsheet', paused: false })]);
    await store.connections.setPaused('c', true);
    expect((await store.connections.get('c'))?.paused).toBe(true);
    expect(await store.connections.get('other')).toBeNull();
  });

  it('cursors: listed by stream, forgotten with the connector states of that connection only', async () => {
    await store.writer.transaction(async (m) => {
      await CursorStore.advance(m, 'c', 'deals', new Date('2025-03-10T09:00:00Z'));
      await CursorStore.advance(m, 'c', 'clients', new Date('2025-03-09T09:00:00Z'));
      await CursorStore.advance(m, 'd', 'deals', new Date('2025-03-08T09:00:00Z'));
      await CursorStore.saveState(m, 'c', 'deals', { file: 'x' });
    });
    expect((await store.cursors.list('c')).map((c) => [c.stream, c.value])).toEqual([
      ['clients', '2025-03-09T09:00:00.000Z'],
      ['deals', '2025-03-10T09:00:00.000Z'],
    ]);
    expect(await store.cursors.forget('c')).toBe(2);
    expect(await store.cursors.list('c')).toEqual([]);
    expect(await store.cursors.state('c', 'deals')).toBeNull();
    expect(await store.cursors.cursor('d', 'deals')).toEqual(new Date('2025-03-08T09:00:00Z'));
  });

  it('daemons: beat inserts then updates, recent and prune go by heartbeat, remove drops one', async () => {
    const row = (id: string, at: string) => ({ id, host: 'h', pid: 1, started_at: at, heartbeat_at: at, running: [] });
    await store.daemons.beat(row('old', '2025-01-01T00:00:00.000Z'));
    await store.daemons.beat(row('a', '2025-03-10T09:00:00.000Z'));
    await store.daemons.beat({ ...row('a', '2025-03-10T09:00:00.000Z'), heartbeat_at: '2025-03-10T09:00:05.000Z', running: [{ connection_id: 'c', run_id: 3 }] });
    expect(await store.daemons.recent('2025-03-10T09:00:01.000Z')).toEqual([
      expect.objectContaining({ id: 'a', running: [{ connection_id: 'c', run_id: 3 }] }),
    ]);
    await store.daemons.prune('2025-02-01T00:00:00.000Z');
    expect((await store.daemons.recent('2000-01-01T00:00:00.000Z')).map((d) => d.id)).toEqual(['a']);
    await store.daemons.remove('a');
    expect(await store.daemons.recent('2000-01-01T00:00:00.000Z')).toEqual([]);
  });

  it('rejected records: pages in the order found, counts per run, unresolved ones', async () => {
    const runA = await store.runs.create({ connectionId: 'c', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    const runB = await store.runs.create({ connectionId: 'c', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    const rows = Array.from({ length: 450 }, (_, i) => rejection(runA.id, `r${i}`));
    await store.writer.transaction((m) => RejectedRecordStore.insert(m, [...rows, rejection(runB.id, 'x')]));
    const page = await store.rejected.pageOf(runA.id, { limit: 3, offset: 2 });
    expect(page.total).toBe(450);
    expect(page.rows.map((r) => r.external_id)).toEqual(['r2', 'r3', 'r4']);
    expect(await store.rejected.countOf(runB.id)).toBe(1);
    expect(await store.rejected.countsOf([runA.id, runB.id, 999])).toEqual(new Map([[runA.id, 450], [runB.id, 1]]));
    expect(await store.rejected.countsOf([])).toEqual(new Map());
    expect(await store.rejected.hasUnresolved('c')).toBe(true);
    expect(await store.rejected.hasUnresolved('other')).toBe(false);
    expect((await store.rejected.unresolvedOf(runB.id)).map((r) => r.external_id)).toEqual(['x']);
  });

  it('runs: pages newest first, filtered by connection and status; the latest of a connection', async () => {
    const first = await store.runs.create({ connectionId: 'c', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    const second = await store.runs.create({ connectionId: 'c', mode: 'full', since: null, trigger: 'admin', holder: 'h' });
    await store.runs.create({ connectionId: 'd', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    await store.runs.finish(first.id, 'succeeded', null);
    const page = await store.runs.page({ connectionId: 'c' }, { limit: 10, offset: 0 });
    expect([page.total, page.rows.map((r) => r.id)]).toEqual([2, [second.id, first.id]]);
    expect((await store.runs.page({ status: 'succeeded' }, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual([first.id]);
    expect((await store.runs.page({}, { limit: 1, offset: 1 })).rows.map((r) => r.id)).toEqual([second.id]);
    expect((await store.runs.latestOf('c'))?.id).toBe(second.id);
    expect(await store.runs.latestOf('none')).toBeNull();
  });

  it('runs of many connections at once: a list of connections (the runs a scoped token sees) and the latest sync of each', async () => {
    const c1 = await store.runs.create({ connectionId: 'c', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    const d1 = await store.runs.create({ connectionId: 'd', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    const c2 = await store.runs.create({ connectionId: 'c', mode: 'full', since: null, trigger: 'admin', holder: 'h' });
    await store.runs.create({ connectionId: 'c', mode: 'leads', since: null, trigger: 'admin', holder: 'h' }); // outbound: not a sync
    await store.runs.create({ connectionId: 'e', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    const page = await store.runs.page({ connectionIds: ['c', 'd'], direction: 'sync' }, { limit: 10, offset: 0 });
    expect([page.total, page.rows.map((r) => r.id)]).toEqual([3, [c2.id, d1.id, c1.id]]);
    expect((await store.runs.page({ connectionIds: ['c', 'd'], connectionId: 'e' }, { limit: 10, offset: 0 })).total).toBe(0);
    expect((await store.runs.page({ connectionIds: [] }, { limit: 10, offset: 0 })).total).toBe(0);
    const latest = await store.runs.latestOfEach(['c', 'd', 'none'], { direction: 'sync' });
    expect(latest.map((r) => [r.connection_id, r.id]).sort()).toEqual([['c', c2.id], ['d', d1.id]]);
  });

  it('open rejections: how many each connection has, in one query', async () => {
    const run = await store.runs.create({ connectionId: 'c', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    await store.writer.transaction((m) => OpenRejectionStore.record(m, run.id, [rejection(run.id, 'a'), rejection(run.id, 'b')], '2025-03-10T09:00:00.000Z'));
    expect(await store.openRejections.countsOf(['c', 'other'])).toEqual(new Map([['c', 2]]));
    expect(await store.openRejections.countsOf([])).toEqual(new Map());
  });

  it('leases: taken by one holder at a time, renewed and released only by it', async () => {
    const me: LeaseHolder = { id: 'me', ttlMs: 60_000, deadDaemonAfterMs: 30_000 };
    const other: LeaseHolder = { id: 'other', ttlMs: 60_000, deadDaemonAfterMs: 30_000 };
    expect(await store.leases.acquire(me, 'c')).toEqual({ taken: true });
    expect(await store.leases.acquire(other, 'c')).toMatchObject({ taken: false, reason: 'held', lease: { holder: 'me' } });
    expect(await store.leases.renew(other, 'c')).toBe(false);
    expect(await store.leases.renew(me, 'c')).toBe(true);
    await store.leases.release(other, 'c');
    expect((await store.leases.current('c'))?.holder).toBe('me');
    await store.leases.release(me, 'c');
    expect(await store.leases.acquire(other, 'c', '2025-03-10T09:00:00.000Z')).toEqual({ taken: true });
    await store.leases.release(other, 'c');
    expect(await store.leases.acquire(me, 'c', '2025-03-10T09:00:00.000Z')).toMatchObject({ taken: false, reason: 'slot-taken' });
  });

  it('open rejections: a connection\'s page, per stream and oldest first', async () => {
    const run = await store.runs.create({ connectionId: 'c', mode: 'incremental', since: null, trigger: 'cli', holder: 'h' });
    await store.writer.transaction((m) => OpenRejectionStore.record(m, run.id, [rejection(run.id, 'b'), rejection(run.id, 'a')], '2025-03-10T09:00:00.000Z'));
    await store.writer.transaction((m) => OpenRejectionStore.record(m, run.id, [rejection(run.id, 'm', 'managers')], '2025-03-10T09:00:01.000Z'));
    const all = await store.openRejections.pageOf('c', undefined, { limit: 10, offset: 0 });
    expect([all.total, all.rows.map((r) => `${r.stream}:${r.external_id}`)]).toEqual([3, ['deals:a', 'deals:b', 'managers:m']]);
    const deals = await store.openRejections.pageOf('c', 'deals', { limit: 1, offset: 1 });
    expect([deals.total, deals.rows.map((r) => r.external_id)]).toEqual([2, ['b']]);
  });
});
