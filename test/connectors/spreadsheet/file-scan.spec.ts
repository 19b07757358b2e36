import { createHash } from 'crypto';
import { closeSync, openSync, statSync, utimesSync, writeSync } from 'fs';
import { contentDigest } from '../../../connectors/spreadsheet/read-sheet';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { MAX_PARALLEL_SCANS, runScan, ScansAhead, scanFile, scansRunning } from '../../../connectors/spreadsheet/source/file-scan';
import { readStream, tempDir } from './read-helper';

const sha256 = (digest: string, bytes: string) => createHash('sha256').update(`${digest}\0${bytes}`).digest('hex');

describe('spreadsheet connector: the file scan (content hash, plain or quoted), and scans started ahead', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('hashes the settings digest with the bytes (sha256)', async () => {
    const file = tmp.write('hash.csv', 'id\n1\n');
    const scan = await scanFile(file, 'digest');
    expect(scan.hash).toBe(sha256('digest', 'id\n1\n'));
    expect((await scanFile(file, 'another digest')).hash).toBe(sha256('another digest', 'id\n1\n'));
  });

  // 1 MB of short lines first: the scan reads 1 MB at a time, so these cases cross a read's boundary
  const megabyte = 'x,y\n'.repeat(1 << 18);
  it.each([
    ['a file of short unquoted lines', true, `id,title\n1,a\n${megabyte}2,b`],
    ['a quote after the first megabyte', false, `id,title\n${megabyte}2,"b"\n`],
    ['a carriage return', false, 'id,title\r\n1,a\r\n'],
    // the direct split handles a line over the row limit itself (it rejects that row and goes on)
    ['a 3 MB line, across a read boundary', true, `${'x\n'.repeat(400_000)}1,${'x'.repeat(3 << 20)}\n2,b\n`],
  ])('%s: plainDelimited is %s', async (_name, plain, content) => {
    expect((await scanFile(tmp.write('shape.csv', content), 'd')).plainDelimited).toBe(plain);
  });

  // the scan reads 1 MB at a time: a character cut by a read's end is judged whole, with the next read's bytes
  const mb = 1 << 20;
  const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  it.each([
    ['ASCII', null, bytes('id\n1\n')],
    ['a 2-byte character across a read boundary', null, bytes('x'.repeat(mb - 1), 'Ж\n')],
    ['a 3-byte character across a read boundary', null, bytes('x'.repeat(mb - 1), '€')],
    ['a 4-byte character across a read boundary', null, bytes('x'.repeat(mb - 2), '😀')],
    ['a Windows-1251 letter after the first megabyte', mb + 5, bytes('x'.repeat(mb + 5), [0xc6], 'x')],
    ['a lead byte across a read boundary, no continuation after it', mb - 1, bytes('x'.repeat(mb - 1), [0xd0], 'A')],
    ['a character cut by the end of the file', 3, bytes('abc', [0xe2, 0x82])],
    ['an encoded surrogate', 2, bytes('ab', [0xed, 0xa0, 0x80])],
  ])('%s: invalidUtf8At is %p', async (_name, at, content) => {
    expect((await scanFile(tmp.write('utf8.csv', content), 'd')).invalidUtf8At).toBe(at);
  });

  it('gives the file as it found it (size, modification time, inode), and no change when none happened', async () => {
    const file = tmp.write('stamp.csv', 'id\n1\n');
    const { size, mtimeMs, ino } = statSync(file);
    expect(await scanFile(file, 'd')).toMatchObject({ stamp: { size, mtimeMs, ino }, changed: null });
  });

  it('rejects with the reason when the file cannot be read', async () => {
    await expect(scanFile(`${tmp.dir}/missing.csv`, 'd')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('runs at most two scans at once (a worker each); the others wait their turn', async () => {
    const file = tmp.write('many.csv', `id,title\n${'1,abc\n'.repeat(200_000)}`);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, scansRunning())), 1);
    const scans = await Promise.all(Array.from({ length: 6 }, () => scanFile(file, 'd')));
    clearInterval(watch);
    expect(MAX_PARALLEL_SCANS).toBe(2);
    expect(most).toBe(2);
    expect(new Set(scans.map((scan) => scan.hash)).size).toBe(1);
    expect(scansRunning()).toBe(0);
  });

  it('uses a scan started ahead while the file keeps its size, time and inode, once; scans again after a change', async () => {
    const file = tmp.write('ahead.csv', 'id\n1\n');
    const ahead = new ScansAhead(); // a run's session
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    await ahead.scanAhead(file, 'd');
    // other bytes in place, size and time put back: only the scan made before can still see the old bytes
    const fd = openSync(file, 'r+');
    writeSync(fd, '2', 3);
    closeSync(fd);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect((await scanFile(file, 'd', ahead)).hash).toBe(sha256('d', 'id\n1\n'));
    expect((await scanFile(file, 'd', ahead)).hash).toBe(sha256('d', 'id\n2\n'));
    // started ahead, then the file is written as usual (its time moves): the new bytes are hashed
    await ahead.scanAhead(file, 'd');
    tmp.write('ahead.csv', 'id\n3\n');
    expect((await scanFile(file, 'd', ahead)).hash).toBe(sha256('d', 'id\n3\n'));
    ahead.close();
  });

  it('closing the session forgets the scans started ahead, and stops a scan still waiting or running', async () => {
    const file = tmp.write('closed.csv', 'id\n1\n');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const ahead = new ScansAhead();
    await ahead.scanAhead(file, 'd');
    const fd = openSync(file, 'r+');
    writeSync(fd, '2', 3);
    closeSync(fd);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    ahead.close();
    expect((await scanFile(file, 'd', ahead)).hash).toBe(sha256('d', 'id\n2\n')); // scanned afresh
    await ahead.scanAhead(file, 'd'); // a closed session starts nothing
    expect(scansRunning()).toBe(0);

    const big = tmp.write('closed-big.csv', `id,title\n${'1,abc\n'.repeat(3_000_000)}`);
    const stop = new AbortController();
    const scans = [runScan(big, 'd', stop.signal), runScan(big, 'd', stop.signal), runScan(big, 'd', stop.signal)]; // the third waits for a slot
    for (const until = Date.now() + 5_000; scansRunning() === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 1));
    stop.abort();
    const outcomes = await Promise.allSettled(scans);
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason.message) : 'scanned'))).toEqual(
      Array(3).fill(`the scan of ${big} was cancelled (its run ended)`),
    );
    expect(scansRunning()).toBe(0);
  });

  it('a read starts the scans of the later streams; a later file changed meanwhile is read and hashed as it is then', async () => {
    const clients = tmp.write('clients.csv', 'id,name\nc1,Anna\n');
    const deals = tmp.write('deals.csv', 'id,created_at,client_id\nd1,2025-01-01,c1\n');
    const settings = { clients: { path: clients }, deals: { path: deals } };
    const session = await spreadsheetConnector.open!(settings, { connectionId: 'test', settings, logger: { log: () => {}, warn: () => {} } });
    const first = await readStream(settings, 'clients', { laterStreams: ['deals'], session });
    expect(first.records).toHaveLength(1);
    const changed = 'id,created_at,client_id\nd1,2025-01-01,c1\nd2,2025-01-02,c1\n';
    tmp.write('deals.csv', changed);
    const second = await readStream(settings, 'deals', { session });
    expect(second.records.map((r) => r.id)).toEqual(['d1', 'd2']);
    expect(second.state?.content_hash).toBe(sha256(contentDigest('deals', settings.deals), changed));
    await spreadsheetConnector.close!(session);
  });
});
