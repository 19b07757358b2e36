import type { Deal } from '../../../src/connectors/canonical';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { PAGE_SIZE } from '../../../connectors/spreadsheet/sheet-pager';
import { readStream, tempDir } from './read-helper';

describe('spreadsheet connector: content hash, cursor window and stream specs', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const rows = [
    'id,title,created_at,updated_at',
    'A,old,01.01.2025 10:00,01.01.2025 10:00',
    'B,middle,01.01.2025 10:00,05.01.2025 10:00',
    'C,new,01.01.2025 10:00,10.01.2025 10:00',
    'D,no update,08.01.2025 10:00,',
  ].join('\n');

  it('recognises an unchanged file by its content hash without parsing', async () => {
    const file = tmp.write('same.csv', 'id,created_at\n1,2025-01-01\n2,2025-01-02\n');
    const first = await readStream({ deals: { path: file } }, 'deals');
    expect(first.records).toHaveLength(2);
    // only the last page, after every row was read, carries the hash
    expect(first.pages.map((p) => typeof p.state?.content_hash)).toEqual(['string']);
    const second = await readStream({ deals: { path: file } }, 'deals', { state: first.state });
    // the state may gain the file's stamp once it was written long enough ago (quick-stamp.spec.ts)
    expect(second.pages).toMatchObject([{ records: [], unchanged: true, state: { content_hash: first.state?.content_hash } }]);
    expect(second.pages).toHaveLength(1);
  });

  it('reads again when a byte changes or the mapping changes', async () => {
    const file = tmp.write('changing.csv', 'id,created_at,price\n1,2025-01-01,5\n');
    const first = await readStream({ deals: { path: file } }, 'deals');
    tmp.write('changing.csv', 'id,created_at,price\n1,2025-01-01,6\n');
    const changed = await readStream({ deals: { path: file } }, 'deals', { state: first.state });
    expect(changed.pages[0].unchanged).toBeUndefined();
    expect((changed.records[0] as Deal).price).toBe(6);
    const remapped = await readStream({ deals: { path: file, timezone: 'UTC' } }, 'deals', { state: changed.state });
    expect(remapped.records).toHaveLength(1);
    expect(remapped.hashes[0]).not.toBe(changed.hashes[0]);
  });

  it('reads by updated_at only when the settings say incremental: true, never from the header alone', () => {
    const withColumn = tmp.write('inc.csv', rows);
    const without = tmp.write('full.csv', 'id,created_at\n1,2025-01-01\n');
    const specs = spreadsheetConnector.streams({
      deals: { path: withColumn },
      clients: { path: withColumn, incremental: true },
      managers: { path: without, incremental: true },
    });
    // managers have no updated_at: the setting does not apply to them
    expect(specs).toEqual([
      { name: 'managers', incremental: false, sorted: false },
      { name: 'clients', incremental: true, sorted: false },
      { name: 'deals', incremental: false, sorted: false },
    ]);
    expect(spreadsheetConnector.streams({ deals: { path: without, columns: { updated_at: 'created_at' } } })[0].incremental).toBe(false);
    expect(spreadsheetConnector.streams({ deals: { path: 'https://example.test/x.csv', incremental: true } })[0].incremental).toBe(true);
    expect(spreadsheetConnector.streams({ deals: { path: withColumn, incremental: false } })[0].incremental).toBe(false);
  });

  it('without incremental: true every row is read whatever its updated_at, and the content hash is kept', async () => {
    const file = tmp.write('inc.csv', rows);
    const cursor = { since: new Date('2025-01-04T00:00:00Z'), until: new Date('2025-01-09T00:00:00Z') };
    const whole = await readStream<Deal>({ deals: { path: file } }, 'deals', { cursor });
    expect(whole.records.map((d) => d.id)).toEqual(['A', 'B', 'C', 'D']);
    expect(typeof whole.state?.content_hash).toBe('string');
  });

  it('incremental: true skips rows before the cursor and defers rows after its upper bound, withholding the content hash', async () => {
    const file = tmp.write('inc.csv', rows);
    const cursor = { since: new Date('2025-01-04T00:00:00Z'), until: new Date('2025-01-09T00:00:00Z') };
    const windowed = await readStream<Deal>({ deals: { path: file, incremental: true } }, 'deals', { cursor });
    expect(windowed.records.map((d) => d.id)).toEqual(['B', 'D']);
    // rows: the file's, read or not; layout: what its header fed (layout-memory.ts)
    expect(windowed.state).toEqual({ content_hash: null, deferred: true, rows: 4, layout: expect.any(Object) });

    const later = { since: new Date('2025-01-04T00:00:00Z'), until: new Date('2025-02-01T00:00:00Z') };
    const next = await readStream<Deal>({ deals: { path: file, incremental: true } }, 'deals', { cursor: later, state: windowed.state });
    expect(next.records.map((d) => d.id)).toEqual(['B', 'C', 'D']);
    expect(typeof next.state?.content_hash).toBe('string');
  });

  it('ends with a page carrying the withheld state even when the deferred row is the last', async () => {
    const file = tmp.write('late.csv', 'id,created_at,updated_at\n1,2025-01-01,2025-01-01\n2,2025-01-01,2030-01-01\n');
    const cursor = { since: null, until: new Date('2026-01-01T00:00:00Z') };
    const result = await readStream({ deals: { path: file, incremental: true } }, 'deals', { cursor });
    expect(result.records).toHaveLength(1);
    expect(result.pages[result.pages.length - 1].state).toEqual({ content_hash: null, deferred: true, rows: 2, layout: expect.any(Object) });
  });

  it('incremental: true counts and names the rows dated after the read itself (deferred_future), apart from rows merely after the run\'s start', async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    const file = tmp.write('future.csv', [
      'id,created_at,updated_at',
      `F1,2025-01-01,${at(now - 3_600_000)}`, // before the run's upper bound: read
      `F2,2025-01-01,${at(now - 60_000)}`, // after the upper bound, before now: waits for the next run, as ever
      'F3,2025-01-01,30.11.2099', // a typo'd year: waits for decades
      `F4,${at(now + 86_400_000)},`, // no updated_at: its created_at counts
    ].join('\n'));
    const cursor = { since: null, until: new Date(now - 600_000) };
    const result = await readStream<Deal>({ deals: { path: file, incremental: true } }, 'deals', { cursor });
    expect(result.records.map((d) => d.id)).toEqual(['F1']);
    const last = result.pages[result.pages.length - 1];
    expect(last.deferred_future).toBe(2);
    expect(last.state).toMatchObject({ content_hash: null, deferred: true });
    expect(result.logs.filter((line) => line.startsWith('NOTICE'))).toEqual([
      'NOTICE future.csv: 2 rows are dated in the future and held back until then (deferred_future), the file read again on every run: ' +
        `F3 (row 4, updated_at "30.11.2099"), F4 (row 5, created_at "${at(now + 86_400_000)}"); correct the date`,
    ]);
    // the rows between the run's upper bound and now wait as ever, uncounted
    const late = await readStream<Deal>({ deals: { path: file, incremental: true } }, 'deals', { cursor: { since: null, until: new Date(now - 7_200_000) } });
    expect(late.pages[late.pages.length - 1].deferred_future).toBe(2);
  });

  it('incremental: true reads a row before the cursor when its id has an open rejection (fixed without touching updated_at)', async () => {
    const file = tmp.write('fixed.csv', rows);
    const cursor = { since: new Date('2025-01-04T00:00:00Z'), until: new Date('2025-02-01T00:00:00Z') };
    const windowed = await readStream<Deal>({ deals: { path: file, incremental: true } }, 'deals', { cursor, openRejections: ['A', 'Z'] });
    expect(windowed.records.map((d) => d.id)).toEqual(['A', 'B', 'C', 'D']);
    const without = await readStream<Deal>({ deals: { path: file, incremental: true } }, 'deals', { cursor });
    expect(without.records.map((d) => d.id)).toEqual(['B', 'C', 'D']);
  });

  it(`yields pages of at most ${PAGE_SIZE} records from a larger file`, async () => {
    const lines = ['id,created_at', ...Array.from({ length: 2 * PAGE_SIZE + PAGE_SIZE / 2 }, (_, i) => `R${i},2025-01-01`)];
    const file = tmp.write('paged.csv', lines.join('\n'));
    const result = await readStream({ deals: { path: file } }, 'deals');
    expect(result.pages.map((p) => p.records.length)).toEqual([PAGE_SIZE, PAGE_SIZE, PAGE_SIZE / 2]);
    expect(result.refs[2 * PAGE_SIZE + PAGE_SIZE / 2 - 1]).toBe(`paged.csv row ${2 * PAGE_SIZE + PAGE_SIZE / 2 + 1}`);
  });
});
