import ExcelJS from 'exceljs';
import { join } from 'path';
import type { CustomEvent, Deal } from '../../../src/connectors/canonical';
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

/** The row fingerprints cover what the header maps each column to: a rename that changes what is sent re-sends. */
describe('spreadsheet connector: a renamed header column', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('re-sends every row once when the rename changes what is sent, and none when it changes nothing sent', async () => {
    const read = async (header: string) => {
      const file = tmp.write('q.csv', `${header}\nHR1;a;0;01.01.2026;500\n`);
      const { records, hashes } = await readStream<Deal>({ deals: { path: file } }, 'deals');
      return { sent: [records[0].price, records[0].custom_fields], hash: hashes[0] };
    };
    const custom = await read('id;title;status;created_at;Сумма');
    const price = await read('id;title;status;created_at;price');
    // no price column: no price (undefined, the service keeps its own), not an empty one (null, which clears it)
    expect([custom.sent, price.sent]).toEqual([[undefined, { Сумма: '500' }], [500, undefined]]);
    expect(price.hash).not.toBe(custom.hash);
    // another custom-field name is another field of the service
    expect((await read('id;title;status;created_at;сумма')).hash).not.toBe(custom.hash);
    // a recognised name in other letter case, spaces around it, a trailing delimiter: the same fields are sent
    expect((await read('ID;Title;status;created_at; PRICE ')).hash).toBe(price.hash);
    expect((await read('id;title;status;created_at;price;')).hash).toBe(price.hash);
  });

  it('does not re-send rows of a stream that sends no other columns when one of those is renamed', async () => {
    const read = async (header: string) => {
      const file = tmp.write('costs.csv', `${header}\nyandex;01.03.2025;31.03.2025;500;note\n`);
      return (await readStream({ expenses: { path: file } }, 'expenses')).hashes[0];
    };
    expect(await read('channel;from_date;to_date;marketing_cost;Комментарий')).toBe(await read('channel;from_date;to_date;marketing_cost;Заметка'));
  });

  it('re-sends the events of a renamed data column under the ids they had: no second copies', async () => {
    const read = (header: string) => readStream<CustomEvent>({ events: { path: tmp.write('events.csv', `${header}\nsignup,123,10\n`) } }, 'events');
    const before = await read('name,visit_id,amount');
    const after = await read('name,visit_id,sum');
    expect(after.records[0]).toEqual({ id: before.records[0].id, name: 'signup', visit_id: '123', data: { sum: '10' } });
    expect(after.hashes[0]).not.toBe(before.hashes[0]);
  });
});

/**
 * The state keeps what the last read's header fed: a header that no longer feeds a field, or another header under a
 * field mapped by letter, fails the read instead of sending every row wrong.
 */
describe('spreadsheet connector: a header that no longer feeds what the last read\'s did', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const read = (header: string, settings: Partial<SheetSource> = {}, state?: Record<string, unknown> | null) =>
    readStream<Deal>({ deals: { path: tmp.write('fed.csv', `${header}\nF1,01.01.2026,500,20\n`), ...settings } }, 'deals', { state });

  it('fails when a column that fed a field is gone from the header (price renamed Amount), naming it and the fix', async () => {
    const first = await read('id,created_at,price,discount');
    expect(first.state).toMatchObject({ layout: { fields: { price: ['C', 'price'] } } });
    await expect(read('id,created_at,Amount,discount', {}, first.state)).rejects.toThrow(
      'fed.csv: no column feeds price any more: at the last read column C ("price") did, and the header now is "id", "created_at", "Amount", ' +
        '"discount"; every row would be sent without price. Name the column "price" again or map it (columns: { price: "<its header now>" }); ' +
        'if the file has no price on purpose, run a full resync once (sync --full) to read the file as it is now',
    );
    // mapped: read as it says; a read without the last state (a full resync): read as it is
    expect((await read('id,created_at,Amount,discount', { columns: { price: 'Amount' } }, first.state)).records[0].price).toBe(500);
    expect((await read('id,created_at,Amount,discount', {}, null)).records[0].custom_fields).toEqual({ Amount: '500', discount: '20' });
    // a column of the same field under another name it has is no change
    expect((await read('id,created_at,PRICE,discount', {}, first.state)).records[0].price).toBe(500);
  });

  it('fails when the header under a field mapped by letter changed (a column inserted before it), naming the letter, both headers and the fix', async () => {
    const byLetter = { columns: { price: 'C' } };
    const first = await read('id,created_at,Сумма,Скидка', byLetter);
    expect(first.records[0].price).toBe(500);
    await expect(read('id,created_at,Скидка,Сумма', byLetter, first.state)).rejects.toThrow(
      'fed.csv: columns.price = C maps price by its letter, and the header under C is "Скидка" where the last read had "Сумма" (a column ' +
        'inserted or removed before it?); which column holds price is not guessed: map it by name (columns: { price: "Сумма" }, or the name ' +
        'it has now); if C is right, run a full resync once (sync --full) to read the file as it is now',
    );
    // the same header under the letter: read (the file read again, not skipped as unchanged)
    expect((await read('id,created_at,Сумма,Скидка', byLetter, { layout: first.state?.layout })).records[0].price).toBe(500);
    expect((await read('id,created_at,Скидка,Сумма', { columns: { price: 'Сумма' } }, first.state)).records[0].price).toBe(20);
  });
});

/** A header cell left empty: its column is not read, and data under it is named in the log, once. */
describe('spreadsheet connector: empty header cells', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('reads a row under a header with a trailing delimiter, as it reads a row with one', async () => {
    const file = tmp.write('trailing.csv', 'id;title;status;created_at;price;\nTR1;a;0;01.01.2026;1\nTR2;b;0;01.01.2026;2;\nTR3;c;0;01.01.2026\n');
    const { records, rejected, logs } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(records.map((d) => [d.id, d.price, d.custom_fields])).toEqual([['TR1', 1, undefined], ['TR2', 2, undefined]]);
    expect(rejected.map((r) => [r.id, r.reason])).toEqual([['TR3', 'the row has 4 columns, the header has 5']]);
    expect(logs.filter((line) => line.startsWith('WARN'))).toEqual([]);
  });

  it('says once which columns hold data under an empty header cell, and reads the rest of the row', async () => {
    const file = tmp.write('holes.csv', 'id;title;;status;created_at;price;\nEH1;a;middle;0;01.01.2026;1;tail\nEH2;b;;0;01.01.2026;2;\nEH3;c;x;0;01.01.2026;3;\n');
    const { records, rejected, logs } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(rejected).toEqual([]);
    expect(records.map((d) => [d.id, d.status, d.price, d.custom_fields])).toEqual([['EH1', '0', 1, undefined], ['EH2', '0', 2, undefined], ['EH3', '0', 3, undefined]]);
    expect(logs.filter((line) => line.startsWith('WARN'))).toEqual([
      'WARN holes.csv: columns C, G hold data under an empty header cell (first at row 2); it is not read',
    ]);
  });

  it('says nothing of an empty header cell whose column is empty', async () => {
    const file = tmp.write('gap.csv', 'id;;created_at\nG1;;01.01.2026\n');
    const { records, logs } = await readStream({ deals: { path: file } }, 'deals');
    expect(records).toHaveLength(1);
    expect(logs.filter((line) => line.startsWith('WARN'))).toEqual([]);
  });
});
