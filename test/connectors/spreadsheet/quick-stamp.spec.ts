import { statSync, utimesSync } from 'fs';
import type { Deal } from '../../../src/connectors/canonical';
import { RACY_MS } from '../../../connectors/spreadsheet/source/file-scan';
import { readStream, tempDir } from './read-helper';

const BY_STAMP = 'unchanged since the last sync (same inode, size and times)';
const BY_HASH = /unchanged since the last sync$/;

describe('spreadsheet connector: an unchanged local file is known by its stamp, without hashing it', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  let settled: string, edited: string, remapped: string, legacy: string;

  beforeAll(async () => {
    settled = tmp.write('settled.csv', 'id,created_at,price\n1,2025-01-01,5\n');
    edited = tmp.write('edited.csv', 'id,created_at,price\n1,2025-01-01,5\n');
    utimesSync(edited, 1_700_000_000, 1_700_000_000); // whole seconds: set back exactly below
    remapped = tmp.write('remapped.csv', 'id,created_at\n1,2025-01-01 10:00\n');
    legacy = tmp.write('legacy.csv', 'id,created_at\n1,2025-01-01\n');
    // a file is stamped only once its last write is older than RACY_MS when its scan begins
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 300));
  }, RACY_MS + 5000);

  it('a file written just before its scan is not stamped: its next read hashes it again', async () => {
    const fresh = tmp.write('fresh.csv', 'id,created_at\n1,2025-01-01\n');
    const first = await readStream({ deals: { path: fresh } }, 'deals');
    expect(first.state).toMatchObject({ content_hash: expect.any(String), file_stamp: null });
    const second = await readStream({ deals: { path: fresh } }, 'deals', { state: first.state });
    expect(second.pages).toMatchObject([{ records: [], unchanged: true, state: { content_hash: first.state?.content_hash } }]);
    expect(second.logs.some((line) => BY_HASH.test(line))).toBe(true);
  });

  it('a settled file is stamped, and its next read stops at the stamp', async () => {
    const first = await readStream({ deals: { path: settled } }, 'deals');
    expect(first.records).toHaveLength(1);
    const stat = statSync(settled, { bigint: true });
    expect(first.state?.file_stamp).toMatch(new RegExp(`^${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}\\|[0-9a-f]{16}$`));
    const second = await readStream({ deals: { path: settled } }, 'deals', { state: first.state });
    expect(second.pages).toEqual([{ records: [], unchanged: true, state: first.state }]);
    expect(second.logs).toContain(`deals: settled.csv is ${BY_STAMP}`);
  });

  it('a rewrite of the same size whose modification time is set back is read again (its change time moved)', async () => {
    const first = await readStream({ deals: { path: edited } }, 'deals');
    expect(first.state?.file_stamp).toEqual(expect.any(String));
    tmp.write('edited.csv', 'id,created_at,price\n1,2025-01-01,7\n');
    utimesSync(edited, 1_700_000_000, 1_700_000_000);
    expect(statSync(edited, { bigint: true }).mtimeNs).toBe(1_700_000_000_000_000_000n);
    const second = await readStream<Deal>({ deals: { path: edited } }, 'deals', { state: first.state });
    expect(second.records.map((d) => d.price)).toEqual([7]);
    // written just now: the new state is not stamped
    expect(second.state).toMatchObject({ content_hash: expect.any(String), file_stamp: null });
  });

  it('the same file read with other settings is read again', async () => {
    const first = await readStream<Deal>({ deals: { path: remapped, timezone: 'UTC' } }, 'deals');
    expect(first.state?.file_stamp).toEqual(expect.any(String));
    const second = await readStream<Deal>({ deals: { path: remapped, timezone: 'Asia/Tokyo' } }, 'deals', { state: first.state });
    expect(second.records.map((d) => d.created_at?.toISOString())).toEqual(['2025-01-01T01:00:00.000Z']);
  });

  it('a state saved before stamps is checked by its hash, and gains the stamp', async () => {
    const first = await readStream({ deals: { path: legacy } }, 'deals');
    const old = { content_hash: first.state?.content_hash };
    const second = await readStream({ deals: { path: legacy } }, 'deals', { state: old });
    expect(second.pages[0]).toMatchObject({ records: [], unchanged: true });
    expect(second.state).toEqual({ content_hash: old.content_hash, file_stamp: first.state?.file_stamp });
    expect(second.logs.some((line) => BY_HASH.test(line))).toBe(true);
    const third = await readStream({ deals: { path: legacy } }, 'deals', { state: second.state });
    expect(third.logs).toContain(`deals: legacy.csv is ${BY_STAMP}`);
  });
});
