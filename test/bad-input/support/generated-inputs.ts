import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { writeFileSync } from 'fs';
import { join } from 'path';

const HEADER = 'id,title,status,created_at,updated_at,price\n';

/**
 * Inputs that are bytes rather than text, written at test time into `dir` (a fixture file would hide
 * what makes them bad). Each returns the file's path.
 */
export const generatedInputs = {
  /** a row with NUL and control bytes between two good rows */
  binaryGarbage(dir: string): string {
    const garbage = Buffer.from([0x62, 0x67, 0x2d, 0x32, 0x2c, 0x00, 0x01, 0xff, 0xfe, 0x2c, 0x30, 0x2c, 0x30, 0x31, 0x2e, 0x30, 0x33, 0x2e, 0x32, 0x30, 0x32, 0x35, 0x2c, 0x2c, 0x31, 0x0a]);
    return write(dir, 'binary-garbage.csv', Buffer.concat([Buffer.from(`${HEADER}bg-1,ok,0,01.03.2025,,100\n`), garbage, Buffer.from('bg-3,ok,0,02.03.2025,,100\n')]));
  },

  /**
   * A UTF-8 export with one row pasted from a Windows-1251 file. The first 64 KB decide the encoding, so
   * valid UTF-8 rows come first (Cyrillic titles), then the foreign row, then one more good row.
   */
  mixedEncodings(dir: string): string {
    const padding = Array.from({ length: 1500 }, (_, i) => `me-p${i},Сделка номер ${i} для проверки кодировки,0,01.03.2025,,100\n`).join('');
    const cp1251 = iconv.encode('me-bad,Привет из 1251,0,01.03.2025,,100\n', 'win1251');
    return write(dir, 'mixed-encodings.csv', Buffer.concat([Buffer.from(HEADER + padding), cp1251, Buffer.from('me-last,ok,0,02.03.2025,,100\n')]));
  },

  /**
   * A Windows-1251 export whose first 250 rows are ASCII (more than 64 KB) and whose Cyrillic comes after: the
   * whole file's bytes decide its encoding, not its start.
   */
  lateWindows1251(dir: string): string {
    const ascii = Array.from({ length: 250 }, (_, i) => `lw-p${i},Order ${i},0,01.03.2025,,100,${'x'.repeat(300)}\n`).join('');
    const text = `id,title,status,created_at,updated_at,price,comment\n${ascii}lw-cyr,Кухня,0,01.03.2025,,100,перезвонить в пятницу\n`;
    return write(dir, 'late-windows-1251.csv', iconv.encode(text, 'win1251'));
  },

  /** two exports pasted together: the second still starts with its byte-order mark */
  bomInTheMiddle(dir: string): string {
    return write(dir, 'bom-in-the-middle.csv', Buffer.from(`\uFEFF${HEADER}bm-1,ok,0,01.03.2025,,100\n\uFEFFbm-2,pasted,0,02.03.2025,,100\nbm-3,ok,0,03.03.2025,,100\n`));
  },

  /**
   * 21 lines, row 5 with a 10 MB unquoted field (a pasted blob, a log dump in a comment cell); `quoted` adds
   * quoted titles elsewhere and CRLF line ends (an Excel export), so that csv-parse reads the file.
   */
  overlongRow(dir: string, quoted = false): string {
    const title = (i: number) => (quoted ? `"Deal ${i}, quoted"` : `Deal ${i}`);
    const rows = Array.from({ length: 20 }, (_, i) => i + 2).map((row) =>
      row === 5 ? `${quoted ? 'lq' : 'lr'}-5,${'x'.repeat(10 << 20)},0,01.03.2025,,100` : `${quoted ? 'lq' : 'lr'}-${row},${title(row)},0,01.03.2025,,100`);
    const eol = quoted ? '\r\n' : '\n';
    return write(dir, quoted ? 'overlong-row-quoted.csv' : 'overlong-row.csv', Buffer.from([HEADER.trim(), ...rows, ''].join(eol)));
  },

  /** an XLSX whose header repeats a custom column name (and the service's fields none) */
  async repeatedColumnXlsx(dir: string): Promise<string> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(['id', 'title', 'status', 'created_at', 'price', 'Источник', 'Источник']);
    sheet.addRow(['rx-1', 'Deal 1', '0', '01.03.2025', 100, 'сайт', 'звонок']);
    sheet.addRow(['rx-2', 'Deal 2', '0', '02.03.2025', 200, '', 'почта']);
    const path = join(dir, 'repeated-column.xlsx');
    await workbook.xlsx.writeFile(path);
    return path;
  },

  /** a CSV export saved under an .xlsx name */
  csvNamedXlsx(dir: string): string {
    return write(dir, 'export.xlsx', Buffer.from(`${HEADER}nx-1,ok,0,01.03.2025,,100\n`));
  },

  /** a real XLSX cut in half (an interrupted download) */
  async truncatedXlsx(dir: string): Promise<string> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(['id', 'title', 'status', 'created_at', 'price']);
    for (let i = 0; i < 200; i++) sheet.addRow([`tx-${i}`, `Deal ${i}`, '0', '01.03.2025', 100 + i]);
    const full = Buffer.from(await workbook.xlsx.writeBuffer());
    return write(dir, 'truncated.xlsx', full.subarray(0, Math.floor(full.length / 2)));
  },
};

function write(dir: string, name: string, content: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
