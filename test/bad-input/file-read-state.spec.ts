import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { EngineUnderTest, InProcessSandbox } from '../faults/support/sheet-sync';
import { generatedInputs } from './support/generated-inputs';

/**
 * A file counts as read (its content hash stored, so that the next run skips it unchanged) only when every row was
 * acknowledged by the service or rejected for a reason of its own. Spreadsheet connector → engine → sandbox.
 */
describe('bad-input corpus: a file counts as read only when every row is accounted for', () => {
  let dir: string;
  let sandbox: InProcessSandbox;
  let project: string;
  let engine: EngineUnderTest;
  let quoteFile: string;
  let longFile: string;
  let dailyFile: string;
  const good = (from: number, count: number) => Array.from({ length: count }, (_, i) => `fr-${from + i},Deal,0,01.03.2025,,100`);
  const HEADER = 'id,title,status,created_at,updated_at,price';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'file-read-state-'));
    quoteFile = join(dir, 'open-quote.csv');
    // 600 rows, then a quote that never closes: two full pages (500 rows) are sent before the read fails
    writeFileSync(quoteFile, [HEADER, ...good(0, 600), 'fr-open,"never closed,0,01.03.2025,,100', ...good(600, 5), ''].join('\n'));
    longFile = generatedInputs.overlongRow(dir);
    dailyFile = join(dir, 'daily.csv');
    sandbox = await InProcessSandbox.start();
    project = await sandbox.project('file-read-state');
    engine = await EngineUnderTest.start(sandbox, project, [
      { id: 'open-quote', connector: 'spreadsheet', settings: { deals: { path: quoteFile } } },
      { id: 'long-row', connector: 'spreadsheet', settings: { deals: { path: longFile } } },
      { id: 'daily-export', connector: 'spreadsheet', settings: { deals: { path: dailyFile } } },
    ], { batchSize: 100 });
  });

  afterAll(async () => {
    await engine?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const storedState = async (connection: string) => {
    const rows = await engine.store.query('SELECT state FROM stream_state WHERE connection_id = ? AND stream = ?', [connection, 'deals']);
    const state = rows[0]?.state;
    return typeof state === 'string' ? JSON.parse(state) : state ?? null;
  };
  const arrived = async (prefix: string) => (await sandbox.orderIds(project)).filter((id) => id.startsWith(prefix));

  it('a stream that stopped at a quote never closed fails, records nothing as read, and the next run reads the file again', async () => {
    const first = await engine.run('open-quote');
    expect({ status: first.status, error: first.error }).toEqual({
      status: 'failed',
      error: expect.stringMatching(/^stream deals: open-quote\.csv row 602: a quote opened in this row is never closed/),
    });
    expect((await arrived('fr-')).length).toBe(500); // the full pages before the break were sent
    expect(await storedState('open-quote')).toBeNull();

    const again = await engine.run('open-quote');
    expect({ status: again.status, error: again.error }).toMatchObject({ status: 'failed', error: expect.stringMatching(/row 602/) });
    expect(engine.logger.lines.some((line) => line.includes('open-quote.csv is unchanged'))).toBe(false);

    // the quote fixed: every row arrives, the file is recorded as read, and the run after it skips the file
    writeFileSync(quoteFile, [HEADER, ...good(0, 600), 'fr-open,"closed now",0,01.03.2025,,100', ...good(600, 5), ''].join('\n'));
    const fixed = await engine.run('open-quote');
    expect({ status: fixed.status, error: fixed.error }).toEqual({ status: 'succeeded', error: null });
    expect((await arrived('fr-')).length).toBe(606);
    expect(await storedState('open-quote')).toMatchObject({ content_hash: expect.any(String) });
    const after = await engine.run('open-quote');
    expect(after.streams.deals).toMatchObject({ read: 0, sent: 0 });
    expect(engine.logger.lines.some((line) => line.includes('open-quote.csv is unchanged since the last sync'))).toBe(true);
  });

  it('a file with a rejected row over the size limit is read to its end: every other row arrives, then the file is skipped as unchanged', async () => {
    const first = await engine.run('long-row');
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams.deals).toMatchObject({ read: 20, sent: 19, rejected: 1 });
    expect((await arrived('lr-')).length).toBe(19);
    expect(await storedState('long-row')).toMatchObject({ content_hash: expect.any(String) });
    const second = await engine.run('long-row');
    expect(second.streams.deals).toMatchObject({ read: 0, sent: 0, rejected: 0 });
  });

  it('a file with its header only is warned each run, naming the rows the last read had, and not recorded as read; the next file with rows syncs as usual', async () => {
    const daily = (from: number, count: number, price = 100) => Array.from({ length: count }, (_, i) => `dx-${from + i},Deal,0,01.03.2025,,${price}`);
    const export_ = async (rows: string[]) => {
      writeFileSync(dailyFile, [HEADER, ...rows, ''].join('\n'));
      engine.logger.lines.length = 0;
      return engine.run('daily-export');
    };
    const openRejections = async () => (await engine.store.query(
      "SELECT record_key FROM open_rejection WHERE connection_id = 'daily-export'",
    ) as { record_key: string }[]).map((row) => row.record_key);
    const first = await export_([...daily(0, 3), 'dx-bad,Deal,0,not a date,,100']);
    expect(first.streams.deals).toMatchObject({ read: 4, sent: 3, rejected: 1 });
    expect(first.streams.deals?.notices).toBeUndefined();
    expect(await openRejections()).toEqual(['id:dx-bad']);
    const recorded = await storedState('daily-export');

    const said = 'connection daily-export, stream deals: daily.csv has its header only: no rows read (the last read of this stream had 4 rows)';
    for (const _ of [1, 2]) {
      const headerOnly = await export_([]);
      expect({ status: headerOnly.status, error: headerOnly.error }).toEqual({ status: 'succeeded', error: null });
      // a notice: logged as a warning and kept with the stream's counters in the run's row (admin API, status page)
      expect(headerOnly.streams.deals).toMatchObject({ read: 0, sent: 0, notices: [said] });
      expect(engine.logger.lines.filter((line) => line.includes('has its header only'))).toEqual([expect.stringContaining(said)]);
      expect(await storedState('daily-export')).toEqual(recorded); // the last read's state stays
      // a read of nothing cannot tell a record gone: the open rejection stays open
      expect(await openRejections()).toEqual(['id:dx-bad']);
    }

    // one row changed, one new: only they are sent, as if the header-only file had never been
    const next = await export_([...daily(0, 1), ...daily(1, 1, 150), ...daily(2, 2)]);
    expect({ status: next.status, error: next.error }).toEqual({ status: 'succeeded', error: null });
    expect(next.streams.deals).toMatchObject({ read: 4, sent: 2, unchanged: 2 });
    expect(next.streams.deals?.notices).toBeUndefined();
    expect(await storedState('daily-export')).toMatchObject({ content_hash: expect.any(String), rows: 4 });

    // an empty file (0 bytes) fails the run, as clear: the file, and the rows the last read had
    writeFileSync(dailyFile, '');
    const empty = await engine.run('daily-export');
    expect({ status: empty.status, error: empty.error }).toEqual({
      status: 'failed',
      error: 'stream deals: daily.csv is an empty file (0 bytes): there is nothing to read (is an export still writing it?) (the last read of this stream had 4 rows)',
    });
    expect(await storedState('daily-export')).toMatchObject({ rows: 4 });
  });
});
