import { parse } from 'csv-parse/sync';
import { OverlongRecord, RecordFramer } from '../../../../connectors/spreadsheet/rows/record-framer';
import { MAX_ROW_BYTES } from '../../../../connectors/spreadsheet/rows/sheet-rows';

const OPTIONS = { delimiter: ',', bom: true, relax_quotes: true, relax_column_count: true };

/** The framer's output for `text` cut into pieces of `step` bytes: the records csv-parse makes of the bytes it hands on. */
function frame(text: string | Buffer, step: number): { records: string[][]; count: number; overlong: OverlongRecord[]; openQuoteRow: number | null } {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const framer = new RecordFramer(','.charCodeAt(0));
  const handed: Buffer[] = [];
  const overlong: OverlongRecord[] = [];
  const collect = (pieces: ReturnType<RecordFramer['push']>) => pieces.forEach((p) => (p instanceof OverlongRecord ? overlong.push(p) : handed.push(p)));
  for (let at = 0; at < bytes.length; at += step) collect(framer.push(bytes.subarray(at, at + step)));
  const { framed, openQuoteRow } = framer.end();
  collect(framed);
  return { records: parse(Buffer.concat(handed), OPTIONS), count: framer.recordCount, overlong, openQuoteRow };
}

describe('RecordFramer: where the records of a delimited text end', () => {
  const samples: Array<[string, string]> = [
    ['plain LF', 'id,title\n1,a\n2,b\n'],
    ['no final newline', 'id,title\n1,a\n2,b'],
    ['CRLF with quoted LF and CRLF inside fields', 'id,title\r\n1,"multi\nline"\r\n2,"x\r\ny"\r\n3,"a ""quoted"" word"\r\n'],
    ['a lone LF outside quotes in a CRLF file is data', 'id,title\r\n1,a\nb\r\n2,c\r\n'],
    ['CR only (old Mac)', 'id,title\r1,"a\rb"\r2,c\r'],
    ['stray quotes in unquoted fields', 'id,title\n1,ООО "Ромашка"\n2,5" screen\n3,x"\n'],
    ['a quote closed before other characters (relaxed)', 'id,title\n1,"a"b,c\n2,"",d\n3,"""",e\n'],
    ['BOM and quoted header', '\uFEFF"id","title"\n"1","a"\n'],
    ['empty lines', 'id,title\n\n1,a\n\n\n2,b\n'],
    ['the first newline inside quotes', '"id\nx",title\r\n1,a\r\n'],
  ];

  it.each(samples)('%s: every cut gives csv-parse\'s records and count', (_name, text) => {
    const expected: string[][] = parse(text, OPTIONS);
    for (const step of [1, 2, 3, 5, 7, 64]) {
      const framed = frame(text, step);
      expect({ step, records: framed.records, count: framed.count, overlong: framed.overlong, open: framed.openQuoteRow })
        .toEqual({ step, records: expected, count: expected.length, overlong: [], open: null });
    }
  });

  it('drops a record over the limit and reports its row, size and first bytes; the records after it go on', () => {
    const long = 'x'.repeat(MAX_ROW_BYTES + 10);
    for (const [name, text, bytes] of [
      ['unquoted', `id,title\n1,a\n2,${long}\n3,c\n`, 2 + long.length + 1],
      ['quoted, with newlines and doubled quotes', `id,title\r\n1,a\r\n2,"${long}\n""\n"\r\n3,c\r\n`, 2 + long.length + 6 + 2],
      ['the last, without a newline', `id,title\n1,a\n2,${long}`, 2 + long.length],
    ] as const) {
      for (const step of [32 * 1024, 1 << 20, 3 << 20]) {
        const framed = frame(text, step);
        expect({ name, step, records: framed.records, count: framed.count })
          .toEqual({ name, step, records: name.startsWith('the last') ? [['id', 'title'], ['1', 'a']] : [['id', 'title'], ['1', 'a'], ['3', 'c']], count: name.startsWith('the last') ? 3 : 4 });
        expect(framed.overlong).toHaveLength(1);
        expect({ row: framed.overlong[0].row, bytes: framed.overlong[0].bytes }).toEqual({ row: 3, bytes });
        expect(framed.overlong[0].head.toString().startsWith('2,')).toBe(true);
      }
    }
  });

  it('a record of exactly the limit is handed on', () => {
    const text = `id\n${'x'.repeat(MAX_ROW_BYTES - 1)}\n2\n`;
    const framed = frame(text, 32 * 1024);
    expect({ overlong: framed.overlong.length, rows: framed.records.length }).toEqual({ overlong: 0, rows: 3 });
  });

  it('a quote never closed is reported with the row where it opened, long or short', () => {
    expect(frame('id,title\n1,a\n2,"open\n3,c\n4,d\n', 3)).toMatchObject({ records: [['id', 'title'], ['1', 'a']], openQuoteRow: 3, overlong: [] });
    const long = `id,title\n1,a\n2,"open\n${'3,c\n'.repeat(MAX_ROW_BYTES / 2)}`;
    expect(frame(long, 32 * 1024)).toMatchObject({ records: [['id', 'title'], ['1', 'a']], openQuoteRow: 3, overlong: [] });
  });
});
