import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { basename, join } from 'path';
import { EngineUnderTest, InProcessSandbox } from '../faults/support/sheet-sync';
import { ExpectedRejection, SHEETS } from './support/corpus';
import { generatedInputs } from './support/generated-inputs';

interface RowCase {
  name: string;
  /** a fixture under test/fixtures/bad-input/sheets, or bytes written at test time */
  file: string | ((dir: string) => string | Promise<string>);
  rejected: ExpectedRejection[];
  /** the ids that must reach the service: the valid records of the same file */
  arrived: string[];
  /** custom fields the service must hold, by order id */
  fields?: Record<string, Record<string, string | null>>;
}

const fixture = (name: string) => join(SHEETS, name);
const range = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

/**
 * Bad rows in a spreadsheet: each becomes a rejected record (rejected_record) naming the file and row,
 * the record id and the field, with the reason; the valid rows of the same file reach the service.
 * Every case runs through the whole path: spreadsheet connector → engine → sandbox.
 */
const CASES: RowCase[] = [
  // a quote never closed fails the stream instead (source-errors.spec.ts)
  // a row over 1 MB is rejected on its own, with its row number; the rows after it arrive
  ...[false, true].map((quoted): RowCase => ({
    name: `a 10 MB field in row 5${quoted ? ' (quotes elsewhere, CRLF)' : ''}`, file: (dir) => generatedInputs.overlongRow(dir, quoted),
    arrived: [2, 3, 4, ...range('', 16).map((i) => Number(i) + 6)].map((row) => `${quoted ? 'lq' : 'lr'}-${row}`),
    rejected: [{ id: `${quoted ? 'lq' : 'lr'}-5`, field: '', reason: /^the row is 10,485,7\d\d bytes long, more than the 1 MB a row may have$/, row: 5 }],
  })),
  { name: 'too many columns', file: fixture('too-many-columns.csv'), arrived: ['mc-1', 'mc-3'], rejected: [{ id: 'mc-2', field: '', reason: /^the row has 8 columns, the header has 6$/ }] },
  { name: 'too few columns', file: fixture('too-few-columns.csv'), arrived: ['fc-1', 'fc-3'], rejected: [{ id: 'fc-2', field: '', reason: /^the row has 2 columns, the header has 6$/ }] },
  { name: 'binary garbage', file: generatedInputs.binaryGarbage, arrived: ['bg-1', 'bg-3'], rejected: [{ id: 'bg-2', field: '', reason: /^the row contains binary data \(NUL bytes\)$/ }] },
  {
    name: 'mixed encodings (a Windows-1251 row in a UTF-8 file)', file: generatedInputs.mixedEncodings, arrived: [...range('me-p', 1500), 'me-last'],
    rejected: [{ id: 'me-bad', field: '', reason: /^the row contains bytes that are not valid in the detected encoding/ }],
  },
  {
    name: 'Windows-1251 after 64 KB of ASCII rows', file: generatedInputs.lateWindows1251, arrived: [...range('lw-p', 250), 'lw-cyr'], rejected: [],
    fields: { 'lw-cyr': { comment: 'перезвонить в пятницу' } },
  },
  // a pasted export's byte-order mark is not part of the id: the row syncs under its own id
  { name: 'a BOM in the middle', file: generatedInputs.bomInTheMiddle, arrived: ['bm-1', 'bm-2', 'bm-3'], rejected: [] },
  { name: 'invalid date', file: fixture('invalid-date.csv'), arrived: ['id-1', 'id-3'], rejected: [{ id: 'id-2', field: 'created_at', reason: /^"yesterday" is not a valid date/ }] },
  // a slash date that only the other reading parses: the message says which date_format reads it; one that reads both
  // ways, without a date_format: refused (it was read day first, in a file whose other rows are month first)
  {
    name: 'month-first date 12/31/2025', file: fixture('month-first-date.csv'), arrived: ['md-1'],
    rejected: [
      { id: 'md-2', field: 'created_at', reason: /^"12\/31\/2025 14:30" is not a valid date; it reads as MM\/DD\/YYYY: set date_format: "MM\/DD\/YYYY"$/ },
      { id: 'md-3', field: 'created_at', reason: /^"01\/03\/2025" is not a valid date; it reads as DD\/MM\/YYYY \(2025-03-01\) or as MM\/DD\/YYYY \(2025-01-03\), which is not guessed: set date_format: "DD\/MM\/YYYY" or "MM\/DD\/YYYY"$/ },
    ],
  },
  { name: 'impossible date 31.02.2025', file: fixture('impossible-date.csv'), arrived: ['im-1', 'im-3'], rejected: [{ id: 'im-2', field: 'created_at', reason: /^"31\.02\.2025" is not a valid date/ }] },
  { name: 'impossible time 25:00', file: fixture('impossible-time.csv'), arrived: ['it-1'], rejected: [{ id: 'it-2', field: 'created_at', reason: /^"01\.03\.2025 25:00" is not a valid date/ }] },
  { name: 'impossible updated_at', file: fixture('invalid-updated-at.csv'), arrived: ['up-1'], rejected: [{ id: 'up-2', field: 'updated_at', reason: /^"30\.02\.2025" is not a valid date/ }] },
  { name: 'empty date', file: fixture('empty-date.csv'), arrived: ['ed-1'], rejected: [{ id: 'ed-2', field: 'created_at', reason: /^is empty$/ }] },
  { name: 'oversize field (> 1000 symbols)', file: fixture('oversize-field.csv'), arrived: ['os-1'], rejected: [{ id: 'os-2', field: 'fields.comment', reason: /has 1200 symbols, at most 1000 allowed/ }] },
  { name: 'negative price', file: fixture('negative-price.csv'), arrived: ['ng-1'], rejected: [{ id: 'ng-2', field: 'price', reason: /^"-5" is negative/ }] },
  { name: 'NaN price', file: fixture('nan-price.csv'), arrived: ['nn-1'], rejected: [{ id: 'nn-2', field: 'price', reason: /^"NaN" is not a number/ }] },
  { name: '1e400 price', file: fixture('infinite-price.csv'), arrived: ['in-1'], rejected: [{ id: 'in-2', field: 'price', reason: /^"1e400" is not a finite number/ }] },
  // an id or visit Excel rounded (`1,23457E+11`): sent, it would be a second deal, or a visit that cannot exist
  {
    name: 'ids Excel rounded to scientific notation', file: fixture('excel-rounded-ids.csv'), arrived: ['xr-1'],
    rejected: [
      { id: '1,23457E+11', field: 'id', reason: /^"1,23457E\+11" looks like a number Excel rounded to scientific notation: its digits are lost; format the column as text before exporting$/ },
      { id: 'xr-3', field: 'visit_id', reason: /^"1,00197E\+06" looks like a number Excel rounded to scientific notation/ },
    ],
  },
  { name: 'ambiguous price 1,234', file: fixture('ambiguous-price.csv'), arrived: ['ap-1'], rejected: [{ id: 'ap-2', field: 'price', reason: /^"1,234" could be 1\.234 or 1234: set decimal_mark: "," or "\." for this sheet$/ }] },
  { name: 'unparseable price', file: fixture('unparseable-price.csv'), arrived: ['ab-1'], rejected: [{ id: 'ab-2', field: 'price', reason: /^"abc" is not a number/ }] },
  // the first row with the id wins; the later one is rejected, not merged over it
  { name: 'duplicate ids in one file', file: fixture('duplicate-ids.csv'), arrived: ['du-1', 'du-2'], rejected: [{ id: 'du-1', field: 'id', reason: /^duplicate id "du-1" \(first at row 2\)$/ }] },
  { name: 'empty id', file: fixture('empty-id.csv'), arrived: ['ei-1'], rejected: [{ id: '', field: 'id', reason: /^is empty$/ }] },
  // a repeated name that is not a field: every value is kept, as a custom field of its own (a repeated field fails: source-errors)
  {
    name: 'a custom column twice', file: fixture('repeated-comment.csv'), arrived: ['rc-1', 'rc-2'], rejected: [],
    fields: { 'rc-1': { Комментарий: 'звонил', 'Комментарий (2)': 'перезвонить в пятницу' }, 'rc-2': { Комментарий: null, 'Комментарий (2)': 'второй' } },
  },
  {
    name: 'a custom column twice in an XLSX', file: generatedInputs.repeatedColumnXlsx, arrived: ['rx-1', 'rx-2'], rejected: [],
    fields: { 'rx-1': { Источник: 'сайт', 'Источник (2)': 'звонок' }, 'rx-2': { Источник: null, 'Источник (2)': 'почта' } },
  },
  { name: 'products column with cut JSON', file: fixture('broken-products-json.csv'), arrived: ['pj-1'], rejected: [{ id: 'pj-2', field: 'products', reason: /is not a JSON array of objects/ }] },
];

describe('bad-input corpus: bad rows of a spreadsheet', () => {
  let dir: string;
  let sandbox: InProcessSandbox;
  let project: string;
  let engine: EngineUnderTest;
  const files = new Map<string, string>();
  const connectionId = (index: number) => `case-${index}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bad-rows-'));
    sandbox = await InProcessSandbox.start();
    project = await sandbox.project('bad-rows');
    // one store and one project for every case: the ids of the cases do not overlap, so each counts its own
    const connections = await Promise.all(CASES.map(async (c, index) => {
      const path = typeof c.file === 'string' ? c.file : await c.file(dir);
      files.set(c.name, path);
      return { id: connectionId(index), connector: 'spreadsheet', settings: { deals: { path } } };
    }));
    engine = await EngineUnderTest.start(sandbox, project, connections, { batchSize: 500 });
  });

  /** the custom fields the service holds for these orders (the sandbox read through the API) */
  async function customFields(ids: string[]): Promise<Record<string, Record<string, unknown>>> {
    const client = sandbox.client(project);
    try {
      const orders = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await client.orders.list({ limit: 1000, offset });
        orders.push(...page.data.filter((o) => ids.includes(o.id)));
        if (page.data.length < 1000) break;
      }
      return Object.fromEntries(orders.map((o) => [o.id, Object.fromEntries(Object.entries(o.custom_fields).filter(([k]) => k.startsWith('Комментарий') || k.startsWith('Источник') || k === 'comment'))]));
    } finally {
      await client.close();
    }
  }

  afterAll(async () => {
    await engine?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds at least 15 row cases, each with its own ids', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(15);
    const all = CASES.flatMap((c) => c.arrived);
    expect(new Set(all).size).toBe(all.length);
  });

  it.each(CASES.map((c, index) => [c.name, index] as const))('%s: rejected with file, row, id, field and reason; the valid rows arrive', async (_name, index) => {
    const c = CASES[index];
    const run = await engine.run(connectionId(index));
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.streams.deals).toMatchObject({ sent: c.arrived.length, rejected: c.rejected.length });

    const rejected = await engine.rejected(run.runId);
    const fileName = basename(files.get(c.name)!);
    for (const [i, r] of c.rejected.entries()) {
      if (r.row) expect({ id: r.id, ref: rejected[i]?.ref }).toEqual({ id: r.id, ref: `${fileName} row ${r.row}` });
    }
    expect(rejected.map((r) => ({ id: r.external_id, field: r.field, reason: r.reason }))).toEqual(
      c.rejected.map((r) => ({ id: r.id, field: r.field, reason: expect.stringMatching(r.reason) })),
    );
    for (const r of rejected) expect(r.ref).toMatch(new RegExp(`^${fileName.replace('.', '\\.')} row \\d+$`));

    const arrived = (await sandbox.orderIds(project)).filter((id) => id.startsWith(c.arrived[0].slice(0, 3)));
    expect(arrived.sort()).toEqual([...c.arrived].sort());
    if (c.fields) expect(await customFields(Object.keys(c.fields))).toEqual(c.fields);
  });
});
