import iconv from 'iconv-lite';
import type { Deal } from '../../../src/connectors/canonical';
import { readStream, tempDir } from './read-helper';

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
      ['deals.csv row 4', 'D3', 'price', '"abc" is not a finite number'],
      ['deals.csv row 5', 'D4', 'price', '"-5" is negative'],
      ['deals.csv row 6', 'D5', 'price', '"1e400" is not a finite number'],
      ['deals.csv row 7', 'D6', 'price', '"NaN" is not a finite number'],
      ['deals.csv row 8', '', 'id', 'is empty'],
      ['deals.csv row 9', 'D7', '', 'the row has 5 columns, the header has 4'],
      ['deals.csv row 10', 'D8', '', 'the row has 2 columns, the header has 4'],
      ['deals.csv row 11', 'D1', 'id', 'duplicate id "D1" (first at row 2)'],
      ['deals.csv row 12', 'D9', 'created_at', 'is empty'],
      ['deals.csv row 14', 'D11', 'created_at', '"01.03.2025 25:00" is not a valid date'],
    ]);
    expect(rejected[0].excerpt).toBe('D2,bad date,31.02.2025,100');
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

  it('reports an unclosed quote with its line; rows before it sync', async () => {
    const file = tmp.write('unclosed.csv', 'id,title,created_at\nU1,ok,01.03.2025\nU2,"never closed,01.03.2025\nU3,lost,01.03.2025\n');
    const { records, rejected } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(records.map((d) => d.id)).toEqual(['U1']);
    expect(rejected).toHaveLength(1);
    expect(rejected[0].ref).toBe('unclosed.csv row 3');
    expect(rejected[0].reason).toMatch(/Quote Not Closed/);
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
      ['garbage.csv row 3004', 'G3', 'the row contains bytes that are not valid in the detected encoding (mixed encodings?)'],
    ]);
  });

  it('fails the stream with a message naming the file when it does not exist', async () => {
    await expect(readStream({ deals: { path: 'no/such/deals.csv' } }, 'deals')).rejects.toThrow(
      /deals: file no\/such\/deals.csv does not exist/,
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
