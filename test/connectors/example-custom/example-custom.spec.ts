import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import connector from '../../../connectors/example-custom';
import { readAll } from '../read-helper';

const lines = [
  { type: 'manager', id: 'm1', name: 'Анна', email: 'anna@shop.ru', phone: '+79160000001' },
  { type: 'client', id: 'c1', name: 'Пётр', phones: ['+79160000002'], emails: ['petr@mail.ru'], updated_at: '2024-03-01T10:00:00Z' },
  { type: 'deal', id: 'd1', title: 'Заказ 1', created_at: '2024-03-01 12:00:00', updated_at: '2024-03-01T10:00:00Z', status: '1', price: 1500, client_id: 'c1', manager_id: 'm1', visit_id: '555' },
  { type: 'deal', id: 'd2', title: 'Заказ 2', created_at: '2024-03-02T09:00:00+03:00', updated_at: '2024-03-05T10:00:00Z', price: '99.9' },
  { type: 'deal', id: 'd3', created_at: 'вчера' },
];

describe('example-custom connector (JSON lines)', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'example-custom-'));
    file = path.join(dir, 'crm.jsonl');
    fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"type":"deal","id":"d4",\n\n`);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads managers and clients as canonical records', async () => {
    expect((await readAll(connector, 'managers', { path: file })).records).toEqual([
      { id: 'm1', name: 'Анна', phone: '+79160000001', email: 'anna@shop.ru' },
    ]);
    expect((await readAll(connector, 'clients', { path: file })).records).toEqual([
      { id: 'c1', name: 'Пётр', phones: ['+79160000002'], emails: ['petr@mail.ru'], company: null, birth_date: null, updated_at: new Date('2024-03-01T10:00:00Z') },
    ]);
  });

  it('reads deals, reads offset-less times as UTC+03:00, and rejects bad lines with file, line, id and field', async () => {
    const { records, rejected } = await readAll(connector, 'deals', { path: file });
    expect(records).toEqual([
      {
        id: 'd1', title: 'Заказ 1', created_at: new Date('2024-03-01T09:00:00Z'), updated_at: new Date('2024-03-01T10:00:00Z'),
        status: '1', visit_id: '555', price: 1500, client_id: 'c1', manager_id: 'm1',
      },
      {
        id: 'd2', title: 'Заказ 2', created_at: new Date('2024-03-02T06:00:00Z'), updated_at: new Date('2024-03-05T10:00:00Z'),
        status: null, visit_id: null, price: 99.9, client_id: null, manager_id: null,
      },
    ]);
    expect(rejected).toEqual([
      expect.objectContaining({ id: 'd3', field: 'created_at', reason: '"вчера" is not a valid date', ref: `${file} line 5` }),
      expect.objectContaining({ id: '', reason: expect.stringMatching(/^the line is not valid JSON/), ref: `${file} line 6` }),
    ]);
  });

  it('is incremental by updated_at within the run window', async () => {
    const { records } = await readAll(connector, 'deals', { path: file }, { since: new Date('2024-03-02T00:00:00Z'), until: new Date('2024-03-10T00:00:00Z') });
    expect(records.map((r) => r.id)).toEqual(['d2']);
  });

  it('pages by page_size and checks that the file is readable', async () => {
    const { pages } = await readAll(connector, 'deals', { path: file, page_size: 1 });
    expect(pages.map((p) => p.records.length)).toEqual([1, 1, 0]);
    const ctx = { connectionId: 'x', logger: { log: () => {}, warn: () => {} } };
    expect(await connector.check({ path: file }, { ...ctx, settings: { path: file } })).toEqual({ ok: true, message: `${file} is readable` });
    const missing = path.join(dir, 'nope.jsonl');
    expect((await connector.check({ path: missing }, { ...ctx, settings: { path: missing } })).ok).toBe(false);
  });
});
