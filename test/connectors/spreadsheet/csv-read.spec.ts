import iconv from 'iconv-lite';
import { join } from 'path';
import type { Client, Deal, Lead, Manager } from '../../../src/connectors/canonical';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { sepLineDelimiter } from '../../../connectors/spreadsheet/source/text-sniff';
import { FIXTURES, readStream, tempDir } from './read-helper';

describe('spreadsheet connector: CSV files', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('reads a sheet with canonical headers, products groups and custom fields without a mapping', async () => {
    const file = tmp.write(
      'deals.csv',
      [
        'id,title,status,created_at,updated_at,price,cost,visit_id,client_id,manager_id,product_1_id,product_1_name,product_1_price,product_1_quantity,product_1_category,Source',
        'D1,Kitchen,new,2025-03-10T12:00:00Z,2025-03-11 10:00,1500.5,100,777,C1,M1,P1,Table,1500.5,1,Furniture > Tables,ads',
        'D2,Chair,paid,10.03.2025 12:00,,200,,,,,,,,,,',
      ].join('\n'),
    );
    const { records, refs, hashes, rejected } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(rejected).toEqual([]);
    expect(records).toHaveLength(2);
    const [d1, d2] = records;
    expect(d1).toMatchObject({
      id: 'D1', title: 'Kitchen', status: 'new', price: 1500.5, cost: 100, visit_id: '777', client_id: 'C1', manager_id: 'M1',
      custom_fields: { Source: 'ads' },
    });
    expect(d1.created_at.toISOString()).toBe('2025-03-10T12:00:00.000Z');
    expect(d1.updated_at!.toISOString()).toBe('2025-03-11T07:00:00.000Z');
    expect(d1.products).toEqual([
      { id: 'P1', name: 'Table', quantity: 1, price: 1500.5, cost: null, categories: ['Furniture', 'Tables'] },
    ]);
    expect(d2.created_at.toISOString()).toBe('2025-03-10T09:00:00.000Z');
    expect(d2.products).toEqual([]);
    expect(d2.custom_fields).toEqual({ Source: null });
    expect(refs).toEqual(['deals.csv row 2', 'deals.csv row 3']);
    expect(new Set(hashes).size).toBe(2);
  });

  it('maps columns by header name and by column letter, and applies status_map', async () => {
    const file = tmp.write('crm-export.csv', 'Deal no,Name,Stage,Opened,Amount\n7,Sofa,142,05.01.2025,"1,234.50"\n8,Bed,999,06.01.2025,10\n');
    const { records, rejected } = await readStream<Deal>(
      {
        deals: {
          path: file,
          columns: { id: 'Deal no', title: 'b', status: 'Stage', created_at: 'D', price: 'E' },
          status_map: { '142': '1', '*': '0' },
        },
      },
      'deals',
    );
    expect(rejected).toEqual([]);
    expect(records.map((d) => [d.id, d.title, d.status, d.price])).toEqual([
      ['7', 'Sofa', '1', 1234.5],
      ['8', 'Bed', '0', 10],
    ]);
    expect(records[0].custom_fields).toBeUndefined();
  });

  it('reads a Windows-1251 ";" export with a title row, DD.MM.YYYY dates and "1 234,50" numbers', async () => {
    const { records, rejected, logs } = await readStream<Deal>(
      {
        deals: {
          path: join(FIXTURES, 'deals-cp1251.csv'),
          header_row: 2,
          columns: { id: 'Номер', title: 'Название', status: 'Статус', created_at: 'Дата создания', price: 'Сумма', manager_id: 'Менеджер' },
          status_map: { Оплачено: '1', Отказ: '2', '*': '0' },
        },
      },
      'deals',
    );
    expect(logs.join('\n')).toMatch(/windows-1251.*delimiter ;/);
    expect(records.map((d) => [d.id, d.title, d.status, d.price, d.manager_id])).toEqual([
      ['101', 'Кухня на заказ', '0', 1234.5, 'M1'],
      ['102', 'Шкаф-купе', '1', 12500, 'M2'],
      ['104', 'Комод', '0', 1000.5, null],
    ]);
    expect(records[0].created_at.toISOString()).toBe('2025-03-09T21:00:00.000Z');
    expect(records[1].created_at.toISOString()).toBe('2025-03-11T11:30:00.000Z');
    expect(records[0].custom_fields).toEqual({ Источник: 'Яндекс' });
    expect(rejected).toEqual([
      expect.objectContaining({
        id: '103',
        field: 'created_at',
        ref: 'deals-cp1251.csv row 5',
        reason: '"31.02.2025" is not a valid date (column "Дата создания")',
      }),
    ]);
  });

  describe('the encoding is the whole file\'s, not its first 64 KB\'s', () => {
    // an export whose first 3,000 rows are ASCII (ids, dates, amounts) and whose Cyrillic begins after 64 KB
    const ascii = Array.from({ length: 3000 }, (_, i) => `A${i};01.03.2025;100;Order ${i}`);
    const cyrillic = ['K1;01.03.2025;100;Кухня «Прованс»', 'K2;01.03.2025;100;Шкаф-купе'];
    const lines = ['id;created_at;price;title', ...ascii, ...cyrillic];

    it.each([
      ['split directly', lines.join('\n')],
      ['through csv-parse (quotes, CRLF)', lines.map((line, i) => (i === 1 ? line.replace('Order 0', '"Order; 0"') : line)).join('\r\n')],
    ])('reads a Windows-1251 file whose first 64 KB are ASCII as Windows-1251 (%s)', async (_how, text) => {
      const bytes = iconv.encode(text, 'win1251');
      expect(bytes.indexOf(iconv.encode('Кухня', 'win1251'))).toBeGreaterThan(64 * 1024);
      const { records, rejected, logs } = await readStream<Deal>({ deals: { path: tmp.write('late-cyrillic.csv', bytes) } }, 'deals');
      expect(rejected).toEqual([]);
      expect(records).toHaveLength(3002);
      expect(records.slice(-2).map((d) => [d.id, d.title])).toEqual([['K1', 'Кухня «Прованс»'], ['K2', 'Шкаф-купе']]);
      expect(logs.join('\n')).toMatch(/late-cyrillic\.csv \(csv, windows-1251 by chardet: [\w-]+, not UTF-8 from byte [\d,]+, delimiter ;\)/);
    });

    it('reads a UTF-8 file with Windows-1251 rows pasted after 64 KB as UTF-8: those rows rejected, the UTF-8 ones never garbled', async () => {
      const pasted = Array.from({ length: 300 }, (_, i) => `W${i};01.03.2025;100;Комод «Прованс» ${i}`).join('\n');
      const bytes = Buffer.concat([Buffer.from(`${['id;created_at;price;title', 'U1;01.03.2025;100;Стол', ...ascii].join('\n')}\n`), iconv.encode(pasted, 'win1251')]);
      const { records, rejected, logs } = await readStream<Deal>({ deals: { path: tmp.write('pasted-1251.csv', bytes) } }, 'deals');
      expect(records[0]).toMatchObject({ id: 'U1', title: 'Стол' });
      expect(records).toHaveLength(3001);
      expect(rejected).toHaveLength(300);
      expect(rejected[0].reason).toBe('the row contains bytes that are not valid in the detected encoding, UTF-8 (mixed encodings? if the whole file is Windows-1251, set encoding: windows-1251)');
      expect(logs.join('\n')).toMatch(/utf-8 by UTF-8 \(not UTF-8 from byte [\d,]+: those rows are rejected\)/);
    });

    it('fails a file whose UTF-8 byte-order mark stands before Windows-1251 text, naming the setting that reads it', async () => {
      const text = 'id;created_at;Город\r\nA;01.03.2025;Москва\r\nB;01.03.2025;"Санкт-Петербург; Пушкин"\r\n';
      for (const [name, body] of [['bom-1251.csv', text], ['bom-1251-plain.csv', text.replace(/\r/g, '').replace('"Санкт-Петербург; Пушкин"', 'Пушкин')]]) {
        const file = tmp.write(name, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), iconv.encode(body, 'win1251')]));
        await expect(readStream({ deals: { path: file } }, 'deals')).rejects.toThrow(
          new RegExp(`^${name.replace('.', '\\.')} starts with a UTF-8 byte-order mark, but its text is not UTF-8 \\(from byte 17 on; chardet says [\\w-]+\\): ` +
            'saved as Windows-1251 behind the mark\\? set encoding: windows-1251'),
        );
        // check (a peek at the header, unscanned) says so too
        const context = { connectionId: 'test', settings: {}, logger: { log: () => undefined, warn: () => undefined } };
        expect(await spreadsheetConnector.check({ deals: { path: file } }, context)).toEqual({ ok: false, message: expect.stringMatching(/^deals: .* starts with a UTF-8 byte-order mark, but its text is not UTF-8 \(chardet says [\w-]+\): .*set encoding: windows-1251/) });
        // so set, the mark is dropped, not read as `п»ї` before the first header name
        const { records, rejected } = await readStream<Deal>({ deals: { path: file, encoding: 'windows-1251' } }, 'deals');
        expect(rejected).toEqual([]);
        expect(records.map((d) => [d.id, d.custom_fields])).toEqual([['A', { Город: 'Москва' }], ['B', { Город: body.includes('"') ? 'Санкт-Петербург; Пушкин' : 'Пушкин' }]]);
      }
    });
  });

  it('reads a UTF-8 file with a BOM and CRLF line ends; several phones and e-mails per cell', async () => {
    const { records, rejected } = await readStream<Client>({ clients: { path: join(FIXTURES, 'clients-bom-crlf.csv') } }, 'clients');
    expect(rejected).toEqual([]);
    expect(records).toEqual([
      {
        id: 'C1', name: 'Анна Иванова', phones: ['+79000000001', '+79000000002'],
        emails: ['anna@example.com', 'anna2@example.com'], company: 'ООО Ромашка', birth_date: '1990-05-17',
        custom_fields: { Город: 'Москва' },
      },
      { id: 'C2', name: 'Пётр', phones: ['+79000000003'], emails: [], company: null, birth_date: null, custom_fields: { Город: 'Казань' } },
    ]);
  });

  it('reads a TSV file', async () => {
    const { records } = await readStream<Manager>({ managers: { path: join(FIXTURES, 'managers.tsv') } }, 'managers');
    expect(records).toEqual([
      { id: 'M1', name: 'Ольга', phone: '+7 495 000-00-00', email: 'olga@example.com' },
      { id: 'M2', name: 'Иван', phone: null, email: 'ivan@example.com' },
    ]);
  });

  it('reads numbers with non-breaking and narrow no-break spaces', async () => {
    const file = tmp.write('nbsp.csv', 'id;created_at;price;cost\nA;2025-01-01;1\u00a0234,50;1\u202f000\n');
    const { records } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(records.map((d) => [d.price, d.cost])).toEqual([[1234.5, 1000]]);
  });

  it('reads money with currency words in a Windows-1251 export (which cannot hold ₽): "48 990 руб.", "500 р.", "RUB 1 000"', async () => {
    const text = 'Номер;Дата;Сумма;Себестоимость\r\nA;01.03.2025;48 990 руб.;500 р.\r\nB;01.03.2025;48\u00a0990,50 руб;RUB 1 000\r\nC;01.03.2025;около 900 руб.;0\r\n';
    const file = tmp.write('money-1251.csv', iconv.encode(text, 'win1251'));
    const { records, rejected, logs } = await readStream<Deal>(
      { deals: { path: file, columns: { id: 'Номер', created_at: 'Дата', price: 'Сумма', cost: 'Себестоимость' } } },
      'deals',
    );
    expect(logs.join('\n')).toMatch(/windows-1251/);
    expect(records.map((d) => [d.id, d.price, d.cost])).toEqual([['A', 48990, 500], ['B', 48990.5, 1000]]);
    expect(rejected.map((r) => [r.id, r.field, r.reason])).toEqual([['C', 'price', '"около 900 руб." is not a number (column "Сумма")']]);
  });

  it('reads a close date (closed_at or an export\'s name for it) and says once which paid or cancelled deals nothing dates', async () => {
    const file = tmp.write('closed.csv', [
      'id,title,status,created_at,price,Дата оплаты,status_history',
      'G-1,Sofa,1,2025-12-31 14:05:00,100,,',
      'G-2,Bed,2,2025-12-30 10:00:00,50,,',
      'G-3,Lamp,1,2025-12-01 10:00:00,10,05.12.2025 12:00,',
      'G-4,Desk,1,2025-12-01 10:00:00,10,,01.12.2025:0;03.12.2025:1',
      'G-5,Chair,0,2025-12-01 10:00:00,10,06.12.2025,',
      'G-6,Shelf,0,2025-12-01 10:00:00,10,,',
    ].join('\n'));
    const { records, rejected, logs } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(rejected).toEqual([]);
    expect(records.map((d) => [d.id, d.closed_at?.toISOString() ?? null])).toEqual([
      ['G-1', null], ['G-2', null], ['G-3', '2025-12-05T09:00:00.000Z'], ['G-4', null], ['G-5', '2025-12-05T21:00:00.000Z'], ['G-6', null],
    ]);
    expect(records[0].custom_fields).toBeUndefined(); // the column feeds closed_at, not a custom field
    expect(logs.filter((line) => line.startsWith('NOTICE'))).toEqual([
      'NOTICE closed.csv: 2 paid or cancelled deals have no close date (closed_at column) and no status history: the service dates them ' +
        'on receipt (G-1, G-2); add a closed_at column with the day each was paid or cancelled',
      'NOTICE closed.csv: 1 deal has a close date (closed_at) but a status that is not paid or cancelled (closed_statuses: 1, 2): the date ' +
        'is sent as the move into that status (G-5); leave closed_at empty for open deals, or set closed_statuses to the project\'s paid and cancelled status ids',
    ]);
    // the project's own ids of its paid and cancelled statuses
    const own = await readStream<Deal>({ deals: { path: file, closed_statuses: ['0'] } }, 'deals');
    expect(own.logs.filter((line) => line.startsWith('NOTICE'))).toEqual([
      expect.stringMatching(/^NOTICE closed\.csv: 1 paid or cancelled deal has no close date .* \(G-6\);/),
      expect.stringMatching(/^NOTICE closed\.csv: 1 deal has a close date .* \(closed_statuses: 0\).* \(G-3\);/),
    ]);
    const off = await readStream<Deal>({ deals: { path: file, closed_statuses: [] } }, 'deals');
    expect(off.logs.filter((line) => line.startsWith('NOTICE'))).toEqual([]);
  });

  it("reads a deal's close date under its canonical name and the names exports give it; an impossible one rejects the row", async () => {
    for (const name of ['closed_at', 'close_date', 'closed_date', 'paid_date', 'paid_at', 'Дата закрытия', 'ДАТА ОПЛАТЫ']) {
      const file = tmp.write('close-names.csv', `id,created_at,${name}\nC1,01.12.2025,05.12.2025 12:00\nC2,01.12.2025,31.02.2025\n`);
      const { records, rejected } = await readStream<Deal>({ deals: { path: file } }, 'deals');
      expect({ name, records: records.map((d) => [d.id, d.closed_at?.toISOString(), d.custom_fields]), rejected: rejected.map((r) => [r.id, r.field]) })
        .toEqual({ name, records: [['C1', '2025-12-05T09:00:00.000Z', undefined]], rejected: [['C2', 'closed_at']] });
    }
  });

  it("keeps a deal's close-date names as they are in other streams: a client's custom field, a lead's paid_at", async () => {
    const clients = tmp.write('paid-clients.csv', 'id,name,paid_date\nK1,Anna,05.12.2025\n');
    expect((await readStream<Client>({ clients: { path: clients } }, 'clients')).records[0].custom_fields).toEqual({ paid_date: '05.12.2025' });
    const leads = tmp.write('paid-leads.csv', 'id,name,created_at,status,paid_at\nL1,Anna,01.12.2025,1,05.12.2025\n');
    expect((await readStream<Lead>({ leads: { path: leads } }, 'leads')).records[0].paid_at?.toISOString()).toBe('2025-12-04T21:00:00.000Z');
  });

  it('reads status history and JSON products', async () => {
    const products = JSON.stringify([{ id: 'P9', name: 'Lamp', quantity: 2, price: 10, category: 'Light > Desk' }]);
    const file = tmp.write(
      'history.csv',
      `id,created_at,status_history,products\nH1,01.03.2025,"01.03.2025:new;05.03.2025 14:30:paid","${products.replace(/"/g, '""')}"\n`,
    );
    const { records, rejected } = await readStream<Deal>(
      { deals: { path: file, status_map: { paid: '1', '*': '0' } } },
      'deals',
    );
    expect(rejected).toEqual([]);
    expect(records[0].history).toEqual([
      { date: new Date('2025-02-28T21:00:00Z'), status: '0' },
      { date: new Date('2025-03-05T11:30:00Z'), status: '1' },
    ]);
    expect(records[0].products).toEqual([
      { id: 'P9', name: 'Lamp', quantity: 2, price: 10, cost: null, brand: null, variant: null, categories: ['Light', 'Desk'] },
    ]);
  });

  it('returns the same fingerprint for the same row and another for a changed row', async () => {
    const a = tmp.write('fp-a.csv', 'id,created_at,price\nX,2025-01-01,1\nY,2025-01-01,2\n');
    const b = tmp.write('fp-b.csv', 'id,created_at,price\nX,2025-01-01,1\nY,2025-01-01,3\n');
    const first = await readStream({ deals: { path: a } }, 'deals');
    const second = await readStream({ deals: { path: b } }, 'deals');
    expect(second.hashes[0]).toBe(first.hashes[0]);
    expect(second.hashes[1]).not.toBe(first.hashes[1]);
  });

  it('counts blank lines in row numbers and skips blank rows', async () => {
    const file = tmp.write('blank.csv', 'id,created_at\r\n\r\nA,2025-01-01\r\n,\r\nB,2025-01-02\r\n\r\n\r\n');
    const { records, refs, rejected } = await readStream({ deals: { path: file } }, 'deals');
    expect(rejected).toEqual([]);
    expect(records.map((r) => r.id)).toEqual(['A', 'B']);
    expect(refs).toEqual(['blank.csv row 3', 'blank.csv row 5']);
  });

  it('follows explicit encoding, delimiter and format settings over detection', async () => {
    const file = tmp.write('odd.txt', iconv.encode('id|x\tcreated_at\nК1|y\t2025-01-01\n', 'win1251'));
    const { records } = await readStream<Deal>(
      { deals: { path: file, format: 'csv', delimiter: '\t', encoding: 'windows-1251', columns: { id: 'A' } } },
      'deals',
    );
    expect(records.map((d) => [d.id, d.custom_fields])).toEqual([['К1|y', undefined]]);
  });

  it('stops after `limit` records for a preview', async () => {
    const file = tmp.write('many.csv', ['id,created_at', ...Array.from({ length: 50 }, (_, i) => `R${i},2025-01-01`)].join('\n'));
    const { records } = await readStream({ deals: { path: file } }, 'deals', { limit: 5 });
    expect(records).toHaveLength(5);
  });
});

describe("spreadsheet connector: Excel's `sep=X` first line", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const deals = (...rows: string[]) => ['id;created_at;price', ...rows];

  it('takes the delimiter from it and skips it, rows keeping their line numbers (a plain file, split directly)', async () => {
    const file = tmp.write('sep-plain.csv', ['sep=;', ...deals('A;2025-01-01;1,5', 'B;31.02.2025;2')].join('\n'));
    const { records, refs, rejected, logs } = await readStream<Deal>({ deals: { path: file } }, 'deals');
    expect(records.map((d) => [d.id, d.price])).toEqual([['A', 1.5]]);
    expect(refs).toEqual(['sep-plain.csv row 3']);
    expect(rejected.map((r) => [r.ref, r.field])).toEqual([['sep-plain.csv row 4', 'created_at']]);
    expect(logs.join('\n')).toMatch(/delimiter ;; its first line is Excel's sep= line, skipped/);
  });

  it('does the same after a BOM, with CRLF line ends and quoted cells (read by csv-parse)', async () => {
    const lines = ['\uFEFFsep=,', 'id,title,created_at,price', 'A,"Стол, дуб",2025-01-01,"1,5"', 'B,x,31.02.2025,2', 'C,"never closed,2025-01-01,1'];
    const file = tmp.write('sep-quoted.csv', lines.join('\r\n'));
    const read = readStream<Deal>({ deals: { path: file } }, 'deals');
    await expect(read).rejects.toThrow(/sep-quoted.csv row 5: a quote opened in this row is never closed/);
    const ok = tmp.write('sep-quoted-ok.csv', lines.slice(0, 4).join('\r\n') + '\r\n');
    const { records, refs, rejected } = await readStream<Deal>({ deals: { path: ok } }, 'deals');
    expect(records.map((d) => [d.id, d.title, d.price])).toEqual([['A', 'Стол, дуб', 1.5]]);
    expect(refs).toEqual(['sep-quoted-ok.csv row 3']);
    expect(rejected.map((r) => r.ref)).toEqual(['sep-quoted-ok.csv row 4']);
  });

  it('names a TAB, and is skipped whatever header_row says; a delimiter in the settings wins over it', async () => {
    const tab = tmp.write('sep-tab.csv', ['sep=\t', 'id\tcreated_at', 'A\t2025-01-01'].join('\n'));
    expect((await readStream({ deals: { path: tab, header_row: 2 } }, 'deals')).refs).toEqual(['sep-tab.csv row 3']);
    const said = tmp.write('sep-said.csv', ['sep=,', 'id;created_at;note', 'A;2025-01-01;x,y'].join('\n'));
    const { records } = await readStream<Deal>({ deals: { path: said, delimiter: ';' } }, 'deals');
    expect(records.map((d) => [d.id, d.custom_fields])).toEqual([['A', { note: 'x,y' }]]);
  });

  it('is skipped by check as by a read', async () => {
    const file = tmp.write('sep-check.csv', ['sep=;', ...deals('A;2025-01-01;1')].join('\n'));
    const context = { connectionId: 'test', settings: { deals: { path: file } }, logger: { log: () => undefined, warn: () => undefined }, state: null };
    expect(await spreadsheetConnector.check({ deals: { path: file } }, context)).toMatchObject({ ok: true });
  });

  it('is only exactly `sep=` and one character on the first line', () => {
    expect(sepLineDelimiter('sep=;\r\nid;x')).toBe(';');
    expect(sepLineDelimiter('sep=|')).toBe('|');
    expect(sepLineDelimiter('sep=\t\nid')).toBe('\t');
    for (const text of ['sep=;;\n', 'sep=\n', 'sep="\n', ' sep=;\n', 'SEP=;\n', 'id;sep=;\n', 'id\nsep=;\n']) expect(sepLineDelimiter(text)).toBeNull();
  });
});
