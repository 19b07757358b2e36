import ExcelJS from 'exceljs';
import { join } from 'path';
import type { Deal } from '../../../src/connectors/canonical';
import type { SheetSource } from '../../../connectors/spreadsheet/settings';
import { readStream, tempDir } from './read-helper';

/** A repeated header name is never resolved silently, in CSV and XLSX alike. */
describe('spreadsheet connector: repeated header names', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  async function sheetFile(format: 'csv' | 'xlsx', name: string, rows: string[][]): Promise<string> {
    if (format === 'csv') return tmp.write(`${name}.csv`, rows.map((r) => r.join(',')).join('\n') + '\n');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    rows.forEach((row) => sheet.addRow(row));
    const file = join(tmp.dir, `${name}.xlsx`);
    await workbook.xlsx.writeFile(file);
    return file;
  }

  describe.each(['csv', 'xlsx'] as const)('%s', (format) => {
    it('a canonical column twice fails the stream, naming the column and both positions', async () => {
      const file = await sheetFile(format, 'price-twice', [
        ['id', 'created_at', 'price', 'title', 'Price'],
        ['P1', '01.03.2025', '100', 'a', '200'],
      ]);
      await expect(readStream({ deals: { path: file } }, 'deals')).rejects.toThrow(
        `price-twice.${format}: the header has two price columns, C ("price") and E ("Price"); which one holds price is not guessed: rename or remove one`,
      );
    });

    it('a column named in `columns` twice fails the stream, naming both positions', async () => {
      const file = await sheetFile(format, 'mapped-twice', [
        ['Номер', 'Дата', 'Номер'],
        ['N1', '01.03.2025', 'N2'],
      ]);
      const source: SheetSource = { path: file, columns: { id: 'Номер', created_at: 'Дата' } };
      await expect(readStream({ deals: source }, 'deals')).rejects.toThrow(
        `mapped-twice.${format}: columns.id = "Номер" names a column the header has twice (columns A and C); which one holds id is not guessed: ` +
          'rename one, or map it by letter (columns.id: A)',
      );
    });

    it('another repeated name keeps every value as its own custom field, and says so once in the log', async () => {
      const file = await sheetFile(format, 'comments', [
        ['id', 'created_at', 'Комментарий', 'Комментарий', 'Комментарий (2)', 'Комментарий'],
        ['C1', '01.03.2025', 'first', 'second', 'literal two', 'third'],
        ['C2', '02.03.2025', 'x', 'y', 'z', 'w'],
      ]);
      const { records, rejected, logs } = await readStream<Deal>({ deals: { path: file } }, 'deals');
      expect(rejected).toEqual([]);
      expect(records.map((d) => d.custom_fields)).toEqual([
        { Комментарий: 'first', 'Комментарий (3)': 'second', 'Комментарий (2)': 'literal two', 'Комментарий (4)': 'third' },
        { Комментарий: 'x', 'Комментарий (3)': 'y', 'Комментарий (2)': 'z', 'Комментарий (4)': 'w' },
      ]);
      expect(logs.filter((line) => line.includes('times'))).toEqual([
        `WARN comments.${format}: the header has "Комментарий" 3 times (columns C, D, F); each is kept, as the custom fields "Комментарий", "Комментарий (3)", "Комментарий (4)"`,
      ]);
    });
  });

  it('rows of a file with repeated names get other fingerprints than the same rows read before the names were kept apart', async () => {
    const plain = tmp.write('plain.csv', 'id,created_at,A,B\nF1,01.03.2025,x,y\n');
    const repeated = tmp.write('repeated.csv', 'id,created_at,A,A\nF1,01.03.2025,x,y\n');
    const first = await readStream({ deals: { path: plain } }, 'deals');
    const second = await readStream({ deals: { path: repeated } }, 'deals');
    expect(first.hashes[0]).not.toBe(second.hashes[0]);
  });
});
