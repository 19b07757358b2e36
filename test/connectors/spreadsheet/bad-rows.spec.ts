import iconv from 'iconv-lite';
import type { Deal } from '../../../src/connectors/canonical';
import type { ReadContext } from '../../../src/connectors/connector-definition';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import type { SpreadsheetSettings } from '../../../connectors/spreadsheet/settings';
import { OPEN_CURSOR, readStream, tempDir } from './read-helper';

function context(settings: SpreadsheetSettings): ReadContext<SpreadsheetSettings> {
  return { connectionId: 'test', settings, logger: { log: () => undefined, warn: () => undefined }, state: null };
}

describe('spreadsheet connector: bad rows become rejected inputs, the other rows go on', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('rejects bad dates, numbers, column counts, missing and duplicate ids with ref, id, field and reason', async () => {
    const file = tmp.write(
      'deals.csv',
      [
        'id,title,created_at,price',
        'D1,ok,01.03.2025,100',
        'D2,bad date,31.02.2025,100',
        'D3,bad number,01.03.2025,abc',
        'D4,negative,01.03.2025,-5',
        'D5,huge,01.03.2025,1e400',
        'D6,nan,01.03.2025,NaN',
        ',no id,01.03.2025,1',
        'D7,too,many,columns,here',
        'D8,too few',
        'D1,duplicate,02.03.2025,1',
        'D9,no date,,1',
        'D10,trailing delimiter,01.03.2025,5,',
        'D11,bad hour,01.03.2025 25:00,5',
      ].join('\n'),
    );
    const { records, rejected } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(records.map((d) => d.id)).toEqual(['D1', 'D10']);
    const summary = rejected.map((r) => [r.ref, r.id, r.field, r.reason]);
    expect(summary).toEqual([
      ['deals.csv row 3', 'D2', 'created_at', '"31.02.2025" is not a valid date'],
      ['deals.csv row 4', 'D3', 'price', '"abc" is not a number'],
      ['deals.csv row 5', 'D4', 'price', '"-5" is negative'],
      ['deals.csv row 6', 'D5', 'price', '"1e400" is not a finite number'],
      ['deals.csv row 7', 'D6', 'price', '"NaN" is not a number'],
      ['deals.csv row 8', '', 'id', 'is empty'],
      ['deals.csv row 9', 'D7', '', 'the row has 5 columns, the header has 4'],
      ['deals.csv row 10', 'D8', '', 'the row has 2 columns, the header has 4'],
      ['deals.csv row 11', 'D1', 'id', 'duplicate id "D1" (first at row 2)'],
      ['deals.csv row 12', 'D9', 'created_at', 'is empty'],
      ['deals.csv row 14', 'D11', 'created_at', '"01.03.2025 25:00" is not a valid date'],
    ]);
    expect(rejected[0].excerpt).toBe('D2,bad date,31.02.2025,100');
  });

  it('quotes a bad number as the cell writes it and names its column: too large, a multiplier, an overflow', async () => {
    const file = tmp.write(
      'amounts.csv',
      [
        'Номер;Дата;Сумма;Себестоимость',
        'A;01.03.2025;"99999999999999999999";1',
        'B;01.03.2025;12 тыс. руб.;1',
        'C;01.03.2025;1;1 000 000 000 000 000,00',
        'D;01.03.2025;999 999 999 999 999;0',
        'E;01.03.2025;1e400;1',
      ].join('\n'),
    );
    const columns = { id: 'Номер', created_at: 'Дата', price: 'Сумма', cost: 'Себестоимость' };
    const { records, rejected } = await readStream<Deal>({ deals: { path: file, columns } }, 'deals');
    expect(records.map((d) => [d.id, d.price])).toEqual([['D', 999999999999999]]);
    expect(rejected.map((r) => [r.ref, r.field, r.reason])).toEqual([
      ['amounts.csv row 2', 'price', '"99999999999999999999" is too large, over 15 digits (column "Сумма")'],
      ['amounts.csv row 3', 'price', '"12 тыс. руб." is not a number (column "Сумма")'],
      ['amounts.csv row 4', 'cost', '"1 000 000 000 000 000,00" is too large, over 15 digits (column "Себестоимость")'],
      ['amounts.csv row 6', 'price', '"1e400" is not a finite number (column "Сумма")'],
    ]);
  });

  it('rejects ids Excel rounded to scientific notation (what a CSV export of a General column holds), naming the field', async () => {
    const file = tmp.write('rounded.csv', [
      'Номер;created_at;visit_id;client_id;manager_id;product_1_id;product_1_name',
      '123456789012;01.03.2025;1001972;c1;m1;;',
      '1,23457E+11;01.03.2025;1001972;c1;m1;;', // the row above, re-saved by Excel: it would be a second deal
      'R3;01.03.2025;1,00197E+06;c1;m1;;', // a visit no one can have: the deal would wait for it forever
      'R4;01.03.2025;;1.23457E+11;m1;;',
      'R5;01.03.2025;;c1;1,23457e+011;;',
      'R6;01.03.2025;;c1;m1;4,60123E+12;Стол', // a barcode as the product id
      'R7;01.03.2025;;c1;m1;SKU-1E+11;Стол',
    ].join('\n'));
    const { records, rejected } = await readStream<Deal>({ deals: { path: file, columns: { id: 'Номер' } } }, 'deals');
    expect(records.map((d) => [d.id, d.visit_id])).toEqual([['123456789012', '1001972'], ['R7', null]]);
    const lost = 'looks like a number Excel rounded to scientific notation';
    const fix = ': its digits are lost; format the column as text before exporting';
    expect(rejected.map((r) => [r.ref, r.id, r.field, r.reason])).toEqual([
      ['rounded.csv row 3', '1,23457E+11', 'id', `"1,23457E+11" ${lost} (column "Номер")${fix}`],
      ['rounded.csv row 4', 'R3', 'visit_id', `"1,00197E+06" ${lost}${fix}`],
      ['rounded.csv row 5', 'R4', 'client_id', `"1.23457E+11" ${lost}${fix}`],
      ['rounded.csv row 6', 'R5', 'manager_id', `"1,23457e+011" ${lost}${fix}`],
      ['rounded.csv row 7', 'R6', 'product_1_id', `"4,60123E+12" ${lost}${fix}`],
    ]);
  });

  describe('a number either decimal mark reads (1,234: 1.234 or 1234)', () => {
    // a US export: comma groups, dot is decimal
    const us = [
      'id;created_at;price;cost;product_1_id;product_1_name;product_1_quantity',
      'U1;01.03.2025;1,234;0.5;P1;Table;1',
      'U2;01.03.2025;$ 1,234.50;12,345;P1;Table;2',
      'U3;01.03.2025;1,234,567;0;P1;Table;1,000', // a quantity too: 1 or 1000 pieces
      'U4;01.03.2025;7;1,5;;;',
    ].join('\n');
    const ambiguous = (text: string, readings: string, field: string) => [field, `"${text}" could be ${readings}: set decimal_mark: "," or "." for this sheet`];

    it('is rejected without a decimal_mark, naming the field and the fix; unambiguous cells are read', async () => {
      const { records, rejected } = await readStream<Deal>({ deals: { path: tmp.write('us.csv', us) } }, 'deals');
      expect(records.map((d) => [d.id, d.price, d.cost])).toEqual([['U4', 7, 1.5]]);
      expect(rejected.map((r) => [r.id, r.field, r.reason])).toEqual([
        ['U1', ...ambiguous('1,234', '1.234 or 1234', 'price')],
        ['U2', ...ambiguous('12,345', '12.345 or 12345', 'cost')],
        ['U3', ...ambiguous('1,000', '1 or 1000', 'product_1_quantity')],
      ]);
    });

    it('decimal_mark: "." reads every number of the stream so; a number it does not fit is rejected', async () => {
      const { records, rejected } = await readStream<Deal>({ deals: { path: tmp.write('us.csv', us), decimal_mark: '.' } }, 'deals');
      expect(records.map((d) => [d.id, d.price, d.cost, d.products?.[0]?.quantity])).toEqual([
        ['U1', 1234, 0.5, 1], ['U2', 1234.5, 12345, 2], ['U3', 1234567, 0, 1000],
      ]);
      expect(rejected.map((r) => [r.id, r.field, r.reason])).toEqual([['U4', 'cost', '"1,5" is not a number with decimal_mark "."']]);
    });

    it('decimal_mark: "," reads a Russian export so, JSON products too', async () => {
      const products = JSON.stringify([{ id: 'P1', name: 'Стол', quantity: '1.000', price: '12,345' }]).replace(/"/g, '""');
      const file = tmp.write('ru.csv', `id;created_at;price;cost;products\nR1;01.03.2025;1.234;12,345;"${products}"\nR2;01.03.2025;1 234,50 руб.;0,5;\n`);
      const { records, rejected } = await readStream<Deal>({ deals: { path: file, decimal_mark: ',' } }, 'deals');
      expect(rejected).toEqual([]);
      expect(records.map((d) => [d.id, d.price, d.cost, d.products?.map((p) => [p.quantity, p.price])])).toEqual([
        ['R1', 1234, 12.345, [[1000, 12.345]]], ['R2', 1234.5, 0.5, []],
      ]);
      const guessed = await readStream<Deal>({ deals: { path: file } }, 'deals');
      expect(guessed.rejected.map((r) => [r.id, r.field, r.reason])).toEqual([['R1', 'price', '"1.234" could be 1.234 or 1234: set decimal_mark: "," or "." for this sheet']]);
    });
  });

  it('finds duplicate ids across a whole file whose first rows mislead the guess of its row count (short, then long rows, and the reverse)', async () => {
    // the duplicate-id table is sized from the first rows' bytes; a wrong guess must cost memory, never a duplicate
    const rows = (n: number, title: (i: number) => string) => Array.from({ length: n }, (_, i) => `D${i},${title(i)},01.03.2025,1`);
    const short = () => 't';
    const long = () => 'x'.repeat(400);
    for (const [name, body] of [
      ['short-first.csv', [...rows(2_000, short), ...rows(30_000, long).map((r) => r.replace(/^D/, 'E'))]],
      ['long-first.csv', [...rows(2_000, long), ...rows(30_000, short).map((r) => r.replace(/^D/, 'E'))]],
    ] as const) {
      const file = tmp.write(name, ['id,title,created_at,price', ...body, 'D5,again,01.03.2025,1', 'E29999,again,01.03.2025,1', 'D1999,again,01.03.2025,1'].join('\n'));
      const { records, rejected } = await readStream<Deal>({ deals: { path: file } }, 'deals');
      expect([name, records.length]).toEqual([name, 32_000]);
      expect([name, rejected.map((r) => r.reason)]).toEqual([name, [
        'duplicate id "D5" (first at row 7)', 'duplicate id "E29999" (first at row 32001)', 'duplicate id "D1999" (first at row 2001)',
      ]]);
    }
  });

  it('keeps stray quotes inside fields as text (real exports write ООО "Ромашка" unquoted)', async () => {
    const file = tmp.write('quotes.csv', 'id,title,created_at\nQ1,"fine ""quoted""",01.03.2025\nQ2,"bad"x,01.03.2025\nQ3,in"side,01.03.2025\n');
    const { records, rejected } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(records.map((d) => [d.id, d.title])).toEqual([
      ['Q1', 'fine "quoted"'],
      ['Q2', '"bad"x'],
      ['Q3', 'in"side'],
    ]);
    expect(rejected).toEqual([]);
  });

  it('fails the read on a quote never closed, naming the row where it opened, after the rows before it', async () => {
    const before = Array.from({ length: 600 }, (_, i) => `U${i},ok,01.03.2025`).join('\n');
    const file = tmp.write('unclosed.csv', `id,title,created_at\n${before}\nU-open,"never closed,01.03.2025\nU-lost,lost,01.03.2025\n`);
    const ids: string[] = [];
    const read = async () => {
      for await (const page of spreadsheetConnector.read('deals', OPEN_CURSOR, context({ deals: { path: file } }))) {
        ids.push(...page.records.map((r) => String(r.id)));
        expect(page.state).toBeUndefined(); // only the page after the last row records the file as read
      }
    };
    await expect(read()).rejects.toThrow(/^unclosed\.csv row 602: a quote opened in this row is never closed, so no row from there on can be read/);
    // the full pages before it were yielded (and may be sent), without the state
    expect(ids).toEqual(Array.from({ length: 500 }, (_, i) => `U${i}`));
  });

  it('suggests the date_format that reads a slash date the configured reading cannot', async () => {
    const file = tmp.write('slashes.csv', 'id,Дата\nS1,12/31/2025\nS2,31/12/2025\nS3,31/13/2025\n');
    const read = (date_format?: string) => readStream({ deals: { path: file, columns: { created_at: 'Дата' }, date_format } }, 'deals');
    expect((await read()).rejected.map((r) => [r.id, r.reason])).toEqual([
      ['S1', '"12/31/2025" is not a valid date (column "Дата"); it reads as MM/DD/YYYY: set date_format: "MM/DD/YYYY"'],
      ['S3', '"31/13/2025" is not a valid date (column "Дата")'], // neither reading: no suggestion
    ]);
    expect((await read('MM/DD/YYYY')).rejected.map((r) => [r.id, r.reason])).toEqual([
      ['S2', '"31/12/2025" is not a valid date (column "Дата"); it reads as DD/MM/YYYY: set date_format: "DD/MM/YYYY"'],
      ['S3', '"31/13/2025" is not a valid date (column "Дата")'],
    ]);
  });

  it('refuses a slash date that reads both ways without a date_format, in dates and histories; dotted dates stay day first', async () => {
    const file = tmp.write('both-ways.csv', [
      'id,Дата,status_history',
      'B1,01/02/2026 10:00:00,',
      'B2,12/31/2025 10:00:00,',
      'B3,01.02.2026 10:00,',
      'B4,31.01.2026,01/02/2026:new',
    ].join('\n'));
    const read = (date_format?: string) => readStream<Deal>({ deals: { path: file, columns: { created_at: 'Дата' }, date_format } }, 'deals');
    const unset = await read();
    expect(unset.rejected.map((r) => [r.id, r.field, r.reason])).toEqual([
      ['B1', 'created_at', '"01/02/2026 10:00:00" is not a valid date (column "Дата"); it reads as DD/MM/YYYY (2026-02-01) or as MM/DD/YYYY ' +
        '(2026-01-02), which is not guessed: set date_format: "DD/MM/YYYY" or "MM/DD/YYYY"'],
      ['B2', 'created_at', '"12/31/2025 10:00:00" is not a valid date (column "Дата"); it reads as MM/DD/YYYY: set date_format: "MM/DD/YYYY"'],
      ['B4', 'status_history', '"01/02/2026:new" is not "DD.MM.YYYY[ HH:MM]:status"; it reads as DD/MM/YYYY (2026-02-01) or as MM/DD/YYYY ' +
        '(2026-01-02), which is not guessed: set date_format: "DD/MM/YYYY" or "MM/DD/YYYY"'],
    ]);
    expect(unset.records.map((d) => [d.id, d.created_at.toISOString()])).toEqual([['B3', '2026-02-01T07:00:00.000Z']]);
    const monthFirst = await read('MM/DD/YYYY');
    expect(monthFirst.rejected).toEqual([]);
    expect(monthFirst.records.map((d) => [d.id, d.created_at.toISOString()])).toEqual([
      ['B1', '2026-01-02T07:00:00.000Z'], ['B2', '2025-12-31T07:00:00.000Z'], ['B3', '2026-02-01T07:00:00.000Z'], ['B4', '2026-01-30T21:00:00.000Z'],
    ]);
    expect(monthFirst.records[3].history).toEqual([{ date: new Date('2026-01-01T21:00:00.000Z'), status: 'new' }]);
    expect((await read('DD/MM/YYYY')).records.map((d) => d.id)).toEqual(['B1', 'B3', 'B4']);
  });

  describe('a row over the size limit (1 MB) is rejected on its own; the rows after it are read', () => {
    const huge = 'x'.repeat(10 << 20);
    const good = (from: number, to: number, quoted = false) =>
      Array.from({ length: to - from + 1 }, (_, i) => `L${from + i},${quoted ? '"deal, quoted"' : 'deal'},01.03.2025`);
    const expectedIds = [...good(2, 4), ...good(6, 21)].map((line) => line.split(',')[0]);

    it.each([
      // no quote in the file: its lines are split directly
      ['unquoted, LF', ['id,title,created_at', ...good(2, 4), `L5,${huge},01.03.2025`, ...good(6, 21), ''].join('\n'), 10 * 2 ** 20 + 15],
      // quotes elsewhere and CRLF: csv-parse reads the file, the framer keeps the long row from it
      ['unquoted, quotes elsewhere, CRLF', ['id,title,created_at', ...good(2, 4, true), `L5,${huge},01.03.2025`, ...good(6, 21, true), ''].join('\r\n'), 10 * 2 ** 20 + 16],
      // a closed quoted field of 10 MB with line breaks in it: still one row
      ['quoted, with line breaks', ['id,title,created_at', ...good(2, 4), `L5,"${huge}\n${huge.slice(0, 10)}",01.03.2025`, ...good(6, 21), ''].join('\n'), 10 * 2 ** 20 + 28],
    ])('%s', async (_name, body, bytes) => {
      const file = tmp.write('long-row.csv', body);
      const { records, rejected, state } = await readStream<Deal>({ deals: { path: file } }, 'deals');
      expect(records.map((d) => d.id)).toEqual(expectedIds);
      expect(rejected).toEqual([{
        id: 'L5', field: '', ref: 'long-row.csv row 5',
        reason: `the row is ${bytes.toLocaleString('en-US')} bytes long, more than the 1 MB a row may have`,
        excerpt: expect.stringMatching(/^L5,"?xxxx.*…$/),
      }]);
      expect(state).toMatchObject({ content_hash: expect.any(String) });
    });

    it('a header row over the limit fails the read', async () => {
      const file = tmp.write('long-header.csv', `id,${huge}\nL1,a\n`);
      await expect(readStream({ deals: { path: file } }, 'deals')).rejects.toThrow(
        /^long-header\.csv row 1: cannot be the header: the row is 10,485,764 bytes long, more than the 1 MB a row may have$/,
      );
      const check = await spreadsheetConnector.check({ deals: { path: file } }, context({ deals: { path: file } }));
      expect(check).toEqual({ ok: false, message: 'deals: long-header.csv row 1: cannot be the header: the row is 10,485,764 bytes long, more than the 1 MB a row may have' });
    });
  });

  it('rejects rows with binary garbage and rows in another encoding; a BOM in the middle is dropped', async () => {
    const head = Buffer.from('id,title,created_at\nG1,ok,01.03.2025\n');
    const garbage = Buffer.from([0x47, 0x32, 0x2c, 0x00, 0x01, 0xff, 0x2c, 0x30, 0x31, 0x2e, 0x30, 0x33, 0x2e, 0x32, 0x30, 0x32, 0x35, 0x0a]);
    const cp1251 = iconv.encode('G3,Привет,01.03.2025\n', 'win1251');
    const bom = Buffer.from('\uFEFFG4,with bom,01.03.2025\nG5,ok too,01.03.2025\n');
    // the first 64 KB decide the encoding: pad with valid rows so UTF-8 wins
    const padding = Buffer.from(Array.from({ length: 3000 }, (_, i) => `P${i},Привет,01.03.2025\n`).join(''));
    const file = tmp.write('garbage.csv', Buffer.concat([head, padding, garbage, cp1251, bom]));
    const { records, rejected } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(padding.length).toBeGreaterThan(64 * 1024);
    expect(records.map((d) => d.id)).toEqual(['G1', ...Array.from({ length: 3000 }, (_, i) => `P${i}`), 'G4', 'G5']);
    expect(rejected.map((r) => [r.ref, r.id, r.reason])).toEqual([
      ['garbage.csv row 3003', 'G2', 'the row contains binary data (NUL bytes)'],
      ['garbage.csv row 3004', 'G3', 'the row contains bytes that are not valid in the detected encoding, UTF-8 (mixed encodings? if the whole file is Windows-1251, set encoding: windows-1251)'],
    ]);
  });

  it('fails the stream with a message naming the file when it does not exist', async () => {
    await expect(readStream({ deals: { path: 'no/such/deals.csv' } }, 'deals')).rejects.toThrow(
      /^file no\/such\/deals.csv does not exist/,
    );
  });

  it('fails the stream once, naming the header, when a required column is missing', async () => {
    const file = tmp.write('nodate.csv', 'id,title\n1,x\n');
    await expect(readStream({ deals: { path: file } }, 'deals')).rejects.toThrow(
      'nodate.csv: no created_at column for deals (header: "id", "title"); name the columns so or map them with columns.<field>',
    );
  });

  it('fails the stream when a columns mapping points nowhere', async () => {
    const file = tmp.write('map.csv', 'id,created_at\n1,2025-01-01\n');
    await expect(readStream({ deals: { path: file, columns: { title: 'Name' } } }, 'deals')).rejects.toThrow(
      /map.csv: columns.title = "Name" is neither a header nor a column letter/,
    );
  });
});
