import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Deal } from '../../../src/connectors/canonical';
import { StreamSortError } from '../../../src/engine/engine-errors';
import { Checkpointer, CheckpointerPlan, CheckpointScope } from '../../../src/engine/pipeline/checkpointer';
import { RejectionLog } from '../../../src/engine/pipeline/rejection-log';
import { zeroServiceCounters } from '../../../src/engine/pipeline/service-answer';
import { createStoreDataSource } from '../../../src/store/store-data-source';
import { SerialWriter } from '../../../src/store/serial-writer';

const at = (iso: string) => new Date(iso).getTime();
const deal = (id: string, updated: string): Deal => ({ id, created_at: new Date('2025-01-01T00:00:00Z'), updated_at: new Date(updated) });

describe('checkpointer: coalescing, cursor, signpost (a real SQLite store)', () => {
  let dir: string;
  let ds: Awaited<ReturnType<typeof createStoreDataSource>>;
  let scope: CheckpointScope;
  let rejections: RejectionLog;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    ds = await createStoreDataSource({ dataDir: dir });
    scope = { runId: 1, connectionId: 'c1', writer: new SerialWriter(ds), streams: { deals: { read: 0, unchanged: 0, sent: 0, rejected: 0, sent_without_visit: 0 } }, counters: zeroServiceCounters(), hasUnresolvedRejections: false, idleCheckpointMs: 60_000 };
    rejections = new RejectionLog(1, 'c1', 'deals');
  });

  afterEach(async () => {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const checkpointer = (plan: Partial<CheckpointerPlan> = {}) =>
    new Checkpointer(scope, { stream: 'deals', incremental: true, sorted: true, moveCursor: true, untilMs: at('2025-06-01T00:00:00Z'), ...plan }, rejections);
  const cursor = async () => (await ds.query(`SELECT value FROM cursor WHERE connection_id = 'c1' AND stream = 'deals'`))[0]?.value ?? null;
  const states = async () => (await ds.query(`SELECT external_id, fingerprint FROM record_state WHERE connection_id = 'c1' ORDER BY external_id`)).map((r: any) => `${r.external_id}=${r.fingerprint}`);

  it('moves a sorted stream\'s cursor to the end of the fully done prefix, never past a record still pending', async () => {
    const cp = checkpointer();
    const first = cp.openChunk();
    cp.note(first, cp.timeOf(deal('a', '2025-03-01T10:00:00Z'), 'a'));
    first.closed = true;
    const second = cp.openChunk();
    cp.note(second, cp.timeOf(deal('b', '2025-03-02T10:00:00Z'), 'b'));
    second.pending = 1; // b is in flight
    second.closed = true;
    cp.openChunk();
    await cp.acknowledged([{ externalId: 'a', fingerprint: 'p1:a' }]);
    expect(await cursor()).toBe('2025-03-01T10:00:00.000Z');
    expect(await states()).toEqual(['a=p1:a']);
    second.pending = 0;
    await cp.acknowledged([{ externalId: 'b', fingerprint: 'p1:b' }]);
    expect(await cursor()).toBe('2025-03-02T10:00:00.000Z');
    expect(cp.finalCursor()).toBeUndefined(); // written already
  });

  it('lets acknowledgements answered while a checkpoint waits share the next one (fewer, larger writes)', async () => {
    const cp = checkpointer({ sorted: false });
    let writes = 0;
    const writer = scope.writer;
    const counting = { transaction: (work: any) => (writes++, writer.transaction(work)) } as unknown as SerialWriter;
    scope.writer = counting;
    // the store is busy: the first checkpoint's turn comes after this write
    const busy = writer.transaction(() => new Promise((r) => setTimeout(r, 50)));
    const all = Promise.all([1, 2, 3, 4].map((n) => cp.acknowledged([{ externalId: `d${n}`, fingerprint: `p1:${n}` }])));
    await Promise.all([busy, all]);
    expect(writes).toBe(1);
    expect(await states()).toEqual(['d1=p1:1', 'd2=p1:2', 'd3=p1:3', 'd4=p1:4']);
    expect(await cursor()).toBeNull(); // unsorted: only at a complete end
  });

  it('leaves records updated after the signpost to the next run, and counts them', () => {
    const cp = checkpointer();
    expect(cp.pastSignpost(cp.timeOf(deal('a', '2025-05-31T23:59:59Z'), 'a'), 'a')).toBe(false);
    expect(cp.pastSignpost(cp.timeOf(deal('b', '2025-06-01T00:00:01Z'), 'b'), 'b')).toBe(true);
    expect(cp.pastSignpost(null, 'c')).toBe(false);
    expect(cp.deferred).toBe(1);
  });

  it('fails a sorted stream going backwards and pulls the cursor back to the offending record', async () => {
    await ds.query(`INSERT INTO cursor (connection_id, stream, value, set_at) VALUES ('c1', 'deals', '2025-03-05T00:00:00.000Z', '2025-03-05T00:00:00.000Z')`);
    const cp = checkpointer();
    cp.timeOf(deal('a', '2025-03-04T00:00:00Z'), 'a');
    expect(() => cp.timeOf(deal('b', '2025-03-03T00:00:00Z'), 'b')).toThrow(StreamSortError);
    expect(() => cp.timeOf(deal('b', '2025-03-03T00:00:00Z'), 'b')).toThrow(/record b has updated_at 2025-03-03T00:00:00.000Z after 2025-03-04/);
    await cp.write();
    expect(await cursor()).toBe('2025-03-03T00:00:00.000Z');
  });

  it('ends an unsorted stream at the latest updated_at read, once every chunk is done; writes state and counters', async () => {
    const cp = checkpointer({ sorted: false });
    const chunk = cp.openChunk();
    for (const [id, when] of [['a', '2025-03-02T00:00:00Z'], ['b', '2025-03-01T00:00:00Z']]) cp.note(chunk, cp.timeOf(deal(id, when), id));
    chunk.closed = true;
    cp.openChunk();
    scope.streams.deals!.sent = 2;
    await cp.write({ cursor: cp.finalCursor(), state: { hash: 'x' } });
    expect(await cursor()).toBe('2025-03-02T00:00:00.000Z');
    expect(await ds.query(`SELECT state FROM stream_state WHERE connection_id = 'c1'`)).toEqual([{ state: '{"hash":"x"}' }]);
  });

  it('writes pending rejections on an idle checkpoint and marks the run as having unresolved ones', async () => {
    const cp = checkpointer({ sorted: false });
    await cp.ifIdle();
    expect(await ds.query('SELECT COUNT(*) AS n FROM rejected_record')).toEqual([{ n: 0 }]);
    scope.idleCheckpointMs = 0;
    rejections.fromChecks('d7', [{ field: 'price', reason: 'is negative' }], 'row 8', { id: 'd7' }, null);
    await cp.ifIdle();
    expect(await ds.query('SELECT external_id, field, reason FROM rejected_record')).toEqual([{ external_id: 'd7', field: 'price', reason: 'is negative' }]);
    expect(scope.hasUnresolvedRejections).toBe(true);
  });
});
