import ExcelJS from 'exceljs';
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { Deal, Expense } from '../../../src/connectors/canonical';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { readXlsxRows } from '../../../connectors/spreadsheet/rows/xlsx-rows';
import { readStream, tempDir } from './read-helper';

async function writeWorkbook(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const notes = workbook.addWorksheet('Notes');
  notes.addRow(['nothing here']);
  const deals = workbook.addWorksheet('Deals');
  deals.addRow(['Sales report, March 2025']);
  deals.addRow([]);
  deals.addRow(['id', 'title', 'created_at', 'price', 'Region']);
  deals.addRow([1001, 'Date cell', new Date(Date.UTC(2025, 2, 10, 12, 0, 0)), 1234.5, 'North']);
  deals.addRow([1002, { richText: [{ text: 'Rich ' }, { text: 'text' }] }, 45726.5, { formula: '2*50', result: 100 }, null]);
  deals.addRow([1003, 'Text date', '10.03.2025 12:00', '1 234,50', 'South']);
  deals.addRow([1004, 'Impossible', '31.02.2025', 5, 'East']);
  deals.getCell('C4').numFmt = 'dd.mm.yyyy hh:mm';
  const expenses = workbook.addWorksheet('Expenses');
  expenses.addRow(['channel', 'from_date', 'to_date', 'marketing_cost']);
  expenses.addRow(['yandex', new Date(Date.UTC(2025, 2, 1)), new Date(Date.UTC(2025, 2, 31)), 50000]);
  await workbook.xlsx.writeFile(file);
}

describe('spreadsheet connector: XLSX files', () => {
  const tmp = tempDir();
  const file = join(tmp.dir, 'report.xlsx');
  beforeAll(() => writeWorkbook(file));
  afterAll(() => tmp.cleanup());

  it('reads a sheet by name with title rows above the header, date cells, serials, formulas and rich text', async () => {
    const { records, rejected, refs } = await readStream<Deal>({ deals: { path: file, sheet: 'Deals', header_row: 3 } }, 'deals');
    expect(records.map((d) => [d.id, d.title, d.created_at.toISOString(), d.price, d.custom_fields])).toEqual([
      ['1001', 'Date cell', '2025-03-10T09:00:00.000Z', 1234.5, { Region: 'North' }],
      ['1002', 'Rich text', '2025-03-10T09:00:00.000Z', 100, { Region: null }],
      ['1003', 'Text date', '2025-03-10T09:00:00.000Z', 1234.5, { Region: 'South' }],
    ]);
    expect(refs[0]).toBe('report.xlsx row 4');
    expect(rejected).toEqual([
      expect.objectContaining({ ref: 'report.xlsx row 7', id: '1004', field: 'created_at', reason: '"31.02.2025" is not a valid date' }),
    ]);
  });

  it('reads a sheet by number; date cells become calendar dates', async () => {
    const { records } = await readStream<Expense>({ expenses: { path: file, sheet: 3 } }, 'expenses');
    expect(records).toEqual([
      { id: 'yandex:2025-03-01:2025-03-31', channel: 'yandex', from_date: '2025-03-01', to_date: '2025-03-31', marketing_cost: 50000, timezone: null },
    ]);
  });

  it('check() and discover() read only the header and the first row of a sheet', async () => {
    const context = { connectionId: 't', settings: {}, logger: { log: () => undefined, warn: () => undefined } };
    const settings = { deals: { path: file, sheet: 'Deals', header_row: 3 } };
    expect(await spreadsheetConnector.check(settings, context)).toEqual({ ok: true, message: 'deals: report.xlsx readable (xlsx, sheet Deals, 5 columns)' });
    const fields = await spreadsheetConnector.discover!(settings, context);
    expect(fields.map((f) => [f.name, f.type, f.example])).toEqual([
      ['id', 'id', 1001],
      ['title', 'title', 'Date cell'],
      ['created_at', 'created_at', '2025-03-10T12:00:00.000Z'],
      ['price', 'price', 1234.5],
      ['Region', 'custom', 'North'],
    ]);
  });

  it('a title row read as the header: the error says which row names the columns (header_row), or that it is a title', async () => {
    const path = join(tmp.dir, 'titled.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Сделки');
    sheet.addRow(['Отчёт по сделкам за декабрь']);
    sheet.addRow([]);
    sheet.addRow(['Номер', 'Дата', 'Сумма']);
    sheet.addRow(['D-1', '01.12.2025', 100]);
    await workbook.xlsx.writeFile(path);
    const columns = { id: 'Номер', created_at: 'Дата', price: 'Сумма' };
    await expect(readStream({ deals: { path, columns } }, 'deals')).rejects.toThrow(
      'titled.xlsx: columns.id = "Номер" is neither a header nor a column letter of the sheet (header: "Отчёт по сделкам за декабрь"); '
        + 'the columns are named in row 3: set header_row: 3',
    );
    const context = { connectionId: 't', settings: {}, logger: { log: () => undefined, warn: () => undefined } };
    expect((await spreadsheetConnector.check({ deals: { path, columns } }, context)).message).toMatch(/; the columns are named in row 3: set header_row: 3$/);
    await expect(readStream({ deals: { path, columns: { ...columns, id: 'Нет такой' } } }, 'deals')).rejects.toThrow(
      /\(header: "Отчёт по сделкам за декабрь"\); row 1 has one cell, a title rather than column names: set header_row to the row that names the columns$/,
    );
    expect((await readStream<Deal>({ deals: { path, columns, header_row: 3 } }, 'deals')).records.map((d) => d.id)).toEqual(['D-1']);
  });

  it('names the sheets it found when the wanted one is missing', async () => {
    await expect(readStream({ deals: { path: file, sheet: 'Nope' } }, 'deals')).rejects.toThrow(
      /report.xlsx: sheet "Nope" not found \(sheets: Notes, Deals, Expenses\)/,
    );
  });

  it('fails with a clear error naming a truncated XLSX file', async () => {
    const bytes = readFileSync(file);
    for (const fraction of [0.05, 0.3, 0.6, 0.9, 0.99]) {
      const truncated = join(tmp.dir, `truncated-${fraction}.xlsx`);
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * fraction)));
      const read = readStream({ deals: { path: truncated, sheet: 'Deals', header_row: 3 } }, 'deals');
      await expect(read).rejects.toThrow(
        new RegExp(`^truncated-${fraction}\\.xlsx: cannot read the XLSX file: the XLSX file is truncated: its [\\d,]+ bytes end before the archive's directory`),
      );
    }
  });

  it.each([
    ['a CSV saved under an .xlsx name', Buffer.from('id,title\n1,a\n'), 'it is not an XLSX file (an XLSX is a ZIP archive): it starts like text (a CSV saved under an .xlsx name? then set format: csv)'],
    ['an old binary .xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]),
      'it is not an XLSX file but an old binary Excel workbook (.xls, Excel 97-2003): save it as .xlsx or CSV'],
    ['binary data of an unknown kind', Buffer.from([0x13, 0x37, 0, 1, 2, 3]), 'it is not an XLSX file (an XLSX is a ZIP archive): it holds binary data of another kind'],
  ])('says when the file is not an XLSX at all: %s', async (_name, bytes, why) => {
    const path = join(tmp.dir, 'not-really.xlsx');
    writeFileSync(path, bytes);
    await expect(readStream({ deals: { path } }, 'deals')).rejects.toThrow(`not-really.xlsx: cannot read the XLSX file: ${why}`);
  });

  it('rejects a row whose formula cell has no cached value, naming the cell and the field; a cached one is read', async () => {
    const path = join(tmp.dir, 'uncalculated.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(['id', 'created_at', 'price', 'Комментарий']);
    sheet.addRow(['F1', '2025-01-01', { formula: 'B2*2' }, 'x']); // a script's output: no <v> in the cell
    sheet.addRow(['F2', '2025-01-01', { formula: '5*2', result: 10 }, 'y']);
    sheet.addRow(['F3', '2025-01-01', 7, { formula: 'C2&"!"' }]);
    await workbook.xlsx.writeFile(path);
    const { records, rejected } = await readStream<Deal>({ deals: { path } }, 'deals');
    expect(records.map((d) => [d.id, d.price])).toEqual([['F2', 10]]);
    const why = 'without a cached value: the file was saved by a program that does not calculate formulas; open and save it in Excel or LibreOffice, or paste the values';
    expect(rejected).toEqual([
      expect.objectContaining({ id: 'F1', field: 'price', ref: 'uncalculated.xlsx row 2', reason: `the cell C2 (column "price") holds the formula =B2*2 ${why}` }),
      expect.objectContaining({ id: 'F3', field: 'Комментарий', ref: 'uncalculated.xlsx row 4', reason: `the cell D4 (column "Комментарий") holds the formula =C2&"!" ${why}` }),
    ]);
  });

  it('reads a formula whose cached result is 0 or empty text as that value', async () => {
    const path = join(tmp.dir, 'falsy-results.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(['id', 'created_at', 'price', 'Комментарий']);
    sheet.addRow(['Z1', '2025-01-01', { formula: '5-5', result: 0 }, { formula: 'IF(TRUE,"","x")', result: '' }]);
    await workbook.xlsx.writeFile(path);
    const { records, rejected } = await readStream<Deal>({ deals: { path } }, 'deals');
    expect(rejected).toEqual([]);
    expect(records.map((d) => [d.id, d.price, d.custom_fields])).toEqual([['Z1', 0, { Комментарий: null }]]);
  });

  it('rejects a row whose formula cell saved an error as its result, saying so', async () => {
    const path = join(tmp.dir, 'error-result.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(['id', 'created_at', 'price']);
    sheet.addRow(['E1', '2025-01-01', { formula: '1/0', result: { error: '#DIV/0!' } }]); // <c t="e"><f>1/0</f><v>#DIV/0!</v></c>
    await workbook.xlsx.writeFile(path);
    const { records, rejected } = await readStream<Deal>({ deals: { path } }, 'deals');
    expect(records).toEqual([]);
    expect(rejected).toEqual([
      expect.objectContaining({
        id: 'E1', field: 'price', ref: 'error-result.xlsx row 2',
        reason: 'the cell C2 (column "price") holds the formula =1/0 whose saved result is an error (#DIV/0!, #N/A, #VALUE! or the like): correct the formula or the cells it reads',
      }),
    ]);
  });

  it('sends a date cell read as text as the wall time Excel shows, without an offset; created_at takes it in the timezone', async () => {
    const path = join(tmp.dir, 'date-text.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(['id', 'created_at', 'Оплата', 'День', 'price']);
    const wall = new Date(Date.UTC(2025, 11, 31, 14, 5)); // exceljs: the wall time 31.12.2025 14:05 in UTC fields
    sheet.addRow(['D1', wall, wall, new Date(Date.UTC(2025, 11, 31)), 1]);
    sheet.addRow(['D2', wall, null, null, 'abc']);
    for (const cell of ['B2', 'C2', 'B3']) sheet.getCell(cell).numFmt = 'dd.mm.yyyy hh:mm';
    sheet.getCell('D2').numFmt = 'dd.mm.yyyy';
    await workbook.xlsx.writeFile(path);
    const { records, rejected } = await readStream<Deal>({ deals: { path } }, 'deals');
    expect(records.map((d) => [d.id, d.created_at.toISOString(), d.custom_fields])).toEqual([
      ['D1', '2025-12-31T11:05:00.000Z', { Оплата: '2025-12-31 14:05:00', День: '2025-12-31' }],
    ]);
    expect(rejected).toEqual([expect.objectContaining({ id: 'D2', excerpt: 'D2\t2025-12-31 14:05:00\t\t\tabc' })]);
  });

  it('reads the first visible sheet when none is named (a hidden first one is skipped), and names it in the log and check', async () => {
    const path = join(tmp.dir, 'hidden-first.xlsx');
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Lookup', { state: 'hidden' }).addRow(['code', 'meaning']);
    workbook.addWorksheet('Old', { state: 'veryHidden' }).addRow(['id', 'created_at']);
    const deals = workbook.addWorksheet('Deals');
    deals.addRow(['id', 'created_at', 'price']);
    deals.addRow(['H1', '2025-01-01', 5]);
    await workbook.xlsx.writeFile(path);
    const { records, logs } = await readStream<Deal>({ deals: { path } }, 'deals');
    expect(records.map((d) => [d.id, d.price])).toEqual([['H1', 5]]);
    expect(logs).toContain('deals: reading hidden-first.xlsx (xlsx, sheet Deals; the hidden sheets "Lookup", "Old" before it not read)');
    const context = { connectionId: 't', settings: {}, logger: { log: () => undefined, warn: () => undefined } };
    expect(await spreadsheetConnector.check({ deals: { path } }, context)).toEqual({ ok: true, message: 'deals: hidden-first.xlsx readable (xlsx, sheet Deals, 3 columns)' });
    // named, a hidden sheet is read (a number counts every tab)
    const named = await readStream({ deals: { path, sheet: 2 } }, 'deals');
    expect(named.logs).toContain('deals: reading hidden-first.xlsx (xlsx, sheet Old)');
  });

  it('reads a number id cell as its number, whatever zeros its format pads it with (as sheets synced before sent it); rejects one too large to be exact', async () => {
    const path = join(tmp.dir, 'padded-ids.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    sheet.addRow(['id', 'created_at', 'visit_id', 'client_id', 'price']);
    sheet.addRow([123, '2025-01-01', 42, 7, 1000]);
    sheet.addRow([124, '2025-01-01', 1001972, 123456789012, 1000]); // a General cell keeps every digit a CSV export loses
    sheet.addRow([125, '2025-01-01', 2 ** 53 + 2, 'c1', 1000]);
    sheet.getColumn(1).numFmt = '000000';
    sheet.getColumn(3).numFmt = '0000000';
    sheet.getColumn(5).numFmt = '00000'; // 1000 shows as 01000: still the number 1000
    await workbook.xlsx.writeFile(path);
    const { records, rejected } = await readStream<Deal>({ deals: { path } }, 'deals');
    expect(records.map((d) => [d.id, d.visit_id, d.client_id, d.price])).toEqual([
      ['123', '42', '7', 1000],
      ['124', '1001972', '123456789012', 1000],
    ]);
    expect(rejected.map((r) => [r.id, r.field, r.reason])).toEqual([
      ['125', 'visit_id', '"9007199254740994" is a number cell too large to be exact (over 2^53): its last digits are lost; format the column as text and enter the ids again'],
    ]);
  });

  it('names a known binary file given as XLSX by what it is', async () => {
    const path = join(tmp.dir, 'scan.xlsx');
    writeFileSync(path, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 3])]));
    await expect(readStream({ deals: { path } }, 'deals')).rejects.toThrow('scan.xlsx is a binary file (a PDF document), not an XLSX workbook: is the path right?');
  });
});

describe('spreadsheet connector: XLSX parts written after the sheets', () => {
  const tmp = tempDir();
  const file = join(tmp.dir, 'two-sheets.xlsx');
  afterAll(() => tmp.cleanup());

  // exceljs writes the shared strings after the worksheets and xl/workbook.xml last. Its one-pass streaming
  // reader parked the sheets in temp files (a skipped sheet's late ENOENT crashed the process) and about once in
  // 800 reads lost the last entry ("Cannot read properties of undefined (reading 'sheets')"). Many reads make
  // either race show.
  it('reading one sheet while skipping the other never crashes and always gives the rows', async () => {
    const workbook = new ExcelJS.Workbook();
    const first = workbook.addWorksheet('First');
    for (let i = 0; i < 20; i++) first.addRow([`a${i}`, 'x']);
    workbook.addWorksheet('Second').addRow(['M1', 'Ольга']);
    await workbook.xlsx.writeFile(file);
    const uncaught: Error[] = [];
    const onUncaught = (error: Error) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      for (let round = 0; round < 250; round++) {
        for (const [sheet, firstCell] of [['Second', 'M1'], ['First', 'a0']]) {
          const rows = [];
          for await (const batch of readXlsxRows(file, sheet, 'two-sheets.xlsx')) rows.push(...batch.rows);
          expect((rows[0] as unknown[])[0]).toBe(firstCell);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100)); // a late ENOENT would arrive by now
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught.map((e) => e.message)).toEqual([]);
  }, 60_000);
});
