import ExcelJS from 'exceljs';
import { renameSync, statSync, utimesSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { Page } from '../../../src/connectors/connector-definition';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import type { SpreadsheetSettings } from '../../../connectors/spreadsheet/settings';
import { OPEN_CURSOR, readStream, tempDir } from './read-helper';

/** Pages of a read, with `meddle` called once after the first page (while the rest of the file is still unread). */
async function readMeddling(settings: SpreadsheetSettings, meddle: () => void | Promise<void>): Promise<{ pages: Page[]; error: string | null }> {
  const pages: Page[] = [];
  const context = { connectionId: 't', settings, logger: { log: () => undefined, warn: () => undefined }, state: null };
  try {
    for await (const page of spreadsheetConnector.read('deals', OPEN_CURSOR, context)) {
      pages.push(page);
      if (pages.length === 1) await meddle();
    }
    return { pages, error: null };
  } catch (e) {
    return { pages, error: (e as Error).message };
  }
}

const ROWS = 20_000;
/** ~600 KB: many 32 KB chunks after the first page */
const csv = (price = 100, quoted = false) =>
  ['id,title,created_at,price', ...Array.from({ length: ROWS }, (_, i) => `D${i},${quoted ? '"Deal, big"' : 'Deal'},2025-01-01,${price}`)].join('\n') + '\n';
const AGAIN = 'it is not recorded as read, and the next run reads it again';

describe('spreadsheet connector: a file that changes while it is read fails the stream, and is not recorded as read', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it.each([
    ['plain', false],
    ['quoted (csv-parse)', true],
  ])('%s CSV truncated (": > file") during the read: fails naming the file; no page carries the hash', async (_kind, quoted) => {
    const file = tmp.write(`cut-${quoted}.csv`, csv(100, quoted));
    const { pages, error } = await readMeddling({ deals: { path: file } }, () => writeFileSync(file, ''));
    expect(error).toMatch(new RegExp(`^cut-${quoted}\\.csv changed while it was read \\(its size went from [\\d,]+ to 0 bytes\\); ${AGAIN}`));
    expect(pages.some((p) => p.state)).toBe(false);
    // no torn row: every record read is a whole row of the file
    expect(pages.flatMap((p) => p.records).every((r) => (r as { price: number }).price === 100)).toBe(true);
    expect(pages.flatMap((p) => p.rejected ?? [])).toEqual([]);
  });

  it('truncated and at once restored with the same bytes: still a change (the modification time), and the next read is whole', async () => {
    const file = tmp.write('restored.csv', csv());
    const { pages, error } = await readMeddling({ deals: { path: file } }, async () => {
      writeFileSync(file, '');
      await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(file, csv());
    });
    expect(error).toMatch(/^restored\.csv changed while it was read \((its size went from [\d,]+ to [\d,]+ bytes|it was modified at \S+)\)/);
    expect(pages.some((p) => p.state)).toBe(false);
    const again = await readStream({ deals: { path: file } }, 'deals');
    expect(again.records).toHaveLength(ROWS);
    expect(typeof again.state?.content_hash).toBe('string');
  });

  it('appended to during the read: fails', async () => {
    const file = tmp.write('growing.csv', csv());
    const { error } = await readMeddling({ deals: { path: file } }, () => writeFileSync(file, 'D-new,Deal,2025-01-01,5\n', { flag: 'a' }));
    expect(error).toMatch(/^growing\.csv changed while it was read \(its size went from/);
  });

  it('rewritten in place with other bytes of the same size and its old modification time: the hash of what was read tells', async () => {
    const file = tmp.write('sneaky.csv', csv(100));
    const stamp = 1_700_000_000; // whole seconds: utimes sets them exactly
    utimesSync(file, stamp, stamp);
    const { pages, error } = await readMeddling({ deals: { path: file } }, () => {
      writeFileSync(file, csv(200), { flag: 'r+' });
      utimesSync(file, stamp, stamp);
      expect(statSync(file).mtimeMs).toBe(stamp * 1000);
    });
    expect(error).toBe(`sneaky.csv changed while it was read (the bytes read are not those it had when the read began); ${AGAIN} ` +
      '(an export that rewrites the file in place? let it write another file and rename it over this one when done)');
    expect(pages.some((p) => p.state)).toBe(false);
  });

  it('replaced by a rename after the read began: the read goes on over the version it opened, whole, and records its hash', async () => {
    const file = tmp.write('renamed.csv', csv(100));
    const { pages, error } = await readMeddling({ deals: { path: file } }, () => {
      writeFileSync(join(tmp.dir, 'renamed.csv.new'), csv(300));
      renameSync(join(tmp.dir, 'renamed.csv.new'), file);
    });
    expect(error).toBeNull();
    expect(pages.flatMap((p) => p.records)).toHaveLength(ROWS);
    expect(pages.flatMap((p) => p.records).every((r) => (r as { price: number }).price === 100)).toBe(true);
    const next = await readStream({ deals: { path: file } }, 'deals', { state: pages[pages.length - 1].state });
    expect(next.pages[0].unchanged).toBeUndefined(); // the new version is read on the next run
    expect((next.records[0] as { price: number }).price).toBe(300);
  });

  it('an XLSX rewritten during the read: fails naming it; read again afterwards, whole', async () => {
    const file = join(tmp.dir, 'deals.xlsx');
    const write = async (price: number) => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Deals');
      sheet.addRow(['id', 'created_at', 'price']);
      for (let i = 0; i < 3000; i++) sheet.addRow([`X${i}`, '2025-01-01', price]);
      await workbook.xlsx.writeFile(file);
    };
    await write(1);
    const { pages, error } = await readMeddling({ deals: { path: file } }, () => write(2));
    expect(error).toMatch(/^deals\.xlsx changed while it was read \(/);
    expect(pages.some((p) => p.state)).toBe(false);
    const again = await readStream({ deals: { path: file } }, 'deals');
    expect(again.records).toHaveLength(3000);
    expect(typeof again.state?.content_hash).toBe('string');
  });
});
