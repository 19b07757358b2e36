import iconv from 'iconv-lite';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { readStream, tempDir } from './read-helper';

/** A real 1×1 PNG (what a screenshot saved as deals.csv starts with). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('spreadsheet connector: empty and binary files are named as such', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  const failureOf = async (path: string, format?: 'csv' | 'xlsx') =>
    readStream({ deals: { path, ...(format ? { format } : {}) } }, 'deals').then(() => 'read', (e: Error) => e.message);

  it('a PNG named .csv is a binary file, not a sheet without id and created_at columns', async () => {
    const file = tmp.write('deals.csv', PNG);
    expect(await failureOf(file)).toBe('deals.csv is a binary file (a PNG image), not CSV text: is the path right?');
    const check = await spreadsheetConnector.check!({ deals: { path: file } }, { connectionId: 't' } as never);
    expect(check).toEqual({ ok: false, message: 'deals: deals.csv is a binary file (a PNG image), not CSV text: is the path right?' });
  });

  it('a PNG given as XLSX, a PDF, an XLSX named .csv and random bytes say what they are', async () => {
    expect(await failureOf(tmp.write('costs.xlsx', PNG))).toBe('costs.xlsx is a binary file (a PNG image), not an XLSX workbook: is the path right?');
    expect(await failureOf(tmp.write('report.csv', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj', 'latin1')))).toMatch(/^report\.csv is a binary file \(a PDF document\)/);
    expect(await failureOf(tmp.write('book.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0])))).toBe(
      'book.csv is a binary file (a ZIP archive, as an XLSX is), not CSV text: an XLSX under another name? then set format: xlsx',
    );
    const noise = Buffer.alloc(3000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 256;
    expect(await failureOf(tmp.write('noise.csv', noise))).toMatch(/^noise\.csv is a binary file \(\d+ of its first 3000 bytes are control bytes\), not CSV text/);
  });

  it('an empty file (0 bytes, or only blank lines) is an empty file, not one without a header row', async () => {
    expect(await failureOf(tmp.write('empty.csv', ''))).toBe('empty.csv is an empty file (0 bytes): there is nothing to read (is an export still writing it?)');
    expect(await failureOf(tmp.write('empty.xlsx', ''))).toMatch(/^empty\.xlsx is an empty file \(0 bytes\)/);
    expect(await failureOf(tmp.write('blank.csv', '\uFEFF\r\n\r\n;;;\r\n'))).toBe('blank.csv is an empty file: it holds only blank lines, no header row');
  });

  it('UTF-16 text says how to save it instead', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('id,created_at\n1,2025-01-01\n', 'utf16le')]);
    expect(await failureOf(tmp.write('unicode.csv', utf16))).toBe('unicode.csv is UTF-16 text (Excel\'s "Unicode text"), which is not read: save it as "CSV UTF-8"');
  });

  it('a text file with a few garbage bytes in one row is still read: that row alone is rejected', async () => {
    const file = tmp.write('garbage.csv', Buffer.concat([
      Buffer.from('id,created_at\nA,2025-01-01\n'), Buffer.from([0x42, 0x2c, 0x00, 0x01, 0x02, 0x0a]), Buffer.from('C,2025-01-03\n'),
    ]));
    const { records, rejected } = await readStream({ deals: { path: file } }, 'deals');
    expect(records.map((r) => r.id)).toEqual(['A', 'C']);
    expect(rejected.map((r) => r.reason)).toEqual(['the row contains binary data (NUL bytes)']);
  });
});
