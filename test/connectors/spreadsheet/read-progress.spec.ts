import { statSync } from 'fs';
import { join } from 'path';
import ExcelJS from 'exceljs';
import { readStream, tempDir } from './read-helper';

const HEADER = 'id;title;created_at;price';
const rows = (n: number, title: (i: number) => string) => Array.from({ length: n }, (_, i) => `d${i + 1};${title(i)};01.02.2025;${i}`);

/** Each page says how far through the file the read is (Page.progress): what the CLI's progress shows. */
describe('spreadsheet read progress', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  function expectThroughTheFile(pages: Awaited<ReturnType<typeof readStream>>['pages'], size: number): void {
    expect(pages.length).toBeGreaterThan(3);
    const done = pages.map((p) => p.progress!.done);
    for (const page of pages) expect(page.progress).toMatchObject({ total: size, unit: 'bytes' });
    for (let i = 1; i < done.length; i++) expect(done[i]).toBeGreaterThanOrEqual(done[i - 1]);
    expect(done[0]).toBeLessThan(size / 2);
    expect(done[done.length - 1]).toBe(size);
  }

  it('reports the bytes of a plain CSV read so far, up to its size', async () => {
    const file = tmp.write('plain.csv', [HEADER, ...rows(20_000, (i) => `Deal number ${i}`)].join('\n'));
    const { pages, records } = await readStream({ deals: { path: file } }, 'deals');
    expect(records).toHaveLength(20_000);
    expectThroughTheFile(pages, statSync(file).size);
  });

  it('and of a CSV with quoted fields (the csv-parse path)', async () => {
    const file = tmp.write('quoted.csv', [HEADER, ...rows(20_000, (i) => `"Deal; number ${i}"`)].join('\r\n'));
    const { pages, records } = await readStream({ deals: { path: file } }, 'deals');
    expect(records).toHaveLength(20_000);
    expectThroughTheFile(pages, statSync(file).size);
  });

  it('says nothing of an XLSX archive, whose bytes do not map to rows', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(HEADER.split(';'));
    for (const row of rows(10, (i) => `Deal ${i}`)) sheet.addRow(row.split(';'));
    const file = join(tmp.dir, 'deals.xlsx');
    await workbook.xlsx.writeFile(file);
    const { pages, records } = await readStream({ deals: { path: file } }, 'deals');
    expect(records).toHaveLength(10);
    expect(pages.every((p) => p.progress === undefined)).toBe(true);
  });
});
