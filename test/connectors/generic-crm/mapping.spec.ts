import { formatDate, parseCalendarDate, parseDate } from '../../../connectors/generic-crm/dates';
import { CustomFieldReader } from '../../../connectors/generic-crm/records/custom-fields';
import { toStatus } from '../../../connectors/generic-crm/records/field-values';
import { compileMapping, readFields } from '../../../connectors/generic-crm/records/mapping';
import { normalizedList, normalizePhone } from '../../../src/connectors/contact-values';
import { renderTemplate } from '../../../connectors/generic-crm/templates';
import connector from '../../../connectors/generic-crm';
import { startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll } from '../read-helper';
import { customSettings, item } from './custom-source';

const record = {
  id: 7,
  deal: { title: 'Кухня', lines: [{ sku: 'A', qty: 2, price: '10.5' }, { sku: 'B', qty: 1, price: '4' }] },
  contacts: [{ id: 1, main: false }, { id: 2, main: true }],
};

describe('generic-crm mapping', () => {
  it('reads a plain dotted path without any expression evaluator (a plain value, not a promise)', () => {
    const [title, sku] = compileMapping({ title: 'deal.title', sku: 'deal.lines[1].sku' }, 'streams.deals');
    expect(title.read(record)).toBe('Кухня');
    expect(sku.read(record)).toBe('B');
    expect(title.read({ deal: null })).toBeUndefined();
    expect(title.read(record) instanceof Promise).toBe(false);
  });

  it('evaluates JSONata written as "=expr" or { expr }', async () => {
    const fields = compileMapping(
      {
        price: '=$sum(deal.lines.($number(price) * qty))',
        client_id: { expr: '(contacts[main].id)[0]' },
        title: { const: 'fixed' },
      },
      'streams.deals',
    );
    expect(await readFields(fields, record)).toEqual({ price: 25, client_id: 2, title: 'fixed' });
  });

  it('names the mapping when a JSONata expression does not compile', () => {
    expect(() => compileMapping({ price: '=$sum(' }, 'streams.deals')).toThrow(/^streams\.deals\.mapping\.price: invalid JSONata expression "\$sum\("/);
  });

  it('maps stage ids through status_map with "*" for the rest, or passes them through without a map', () => {
    const map = { '142': '1', '143': '2', '*': '0' };
    expect(toStatus(142, 'status', map)).toBe('1');
    expect(toStatus('999', 'status', map)).toBe('0');
    expect(toStatus('999', 'status', { '142': '1' })).toBe('999');
    expect(toStatus('NEW', 'status', undefined)).toBe('NEW');
  });

  it('matches status_map keys with "*" patterns: exact keys first, then the most specific pattern, "*" last', () => {
    const map = { 'cancel-*': '2', 'cancel-by-*': '3', 'cancel-by-shop': '4', '*-done': '1', '*': '0' };
    expect(toStatus('cancel-other', 'status', map)).toBe('2');
    expect(toStatus('cancel-by-client', 'status', map)).toBe('3');
    expect(toStatus('cancel-by-shop', 'status', map)).toBe('4');
    expect(toStatus('delivery-done', 'status', map)).toBe('1');
    expect(toStatus('new', 'status', map)).toBe('0');
    // fewer stars wins between patterns with as many fixed characters; regex characters are literal
    expect(toStatus('abXc', 'status', { 'a*b*c': 'two', 'ab*c': 'one' })).toBe('one');
    expect(toStatus('aXb', 'status', { 'a.b': 'dot', '*': 'rest' })).toBe('rest');
    // without "*" an unmatched stage passes unchanged
    expect(toStatus('new', 'status', { 'cancel-*': '2' })).toBe('new');
  });

  it('a read names once the stages status_map has no key for (no "*"), with their deals: the service would skip them', async () => {
    const stages = ['won', 'lead', 'пуфик', 'lead'];
    const server = await startCrmServer(() => ({ body: { items: stages.map((stage, i) => ({ ...item(i + 1), stage })) } }));
    try {
      const mapping = { id: 'id', created_at: 'created', status: 'stage' };
      const { logs } = await readAll(connector, 'deals', customSettings(server.url, { mapping }, { status_map: { won: '1' } }));
      expect(logs.filter((line) => line.startsWith('WARN'))).toEqual([
        'WARN connection test, stream deals: 3 deals read in stages status_map has no key for (nor "*"): they go with the CRM\'s stage id, '
          + 'which the project\'s statuses may lack (skipped_by_status): "lead" (2), "пуфик" (1); map them in status_map',
      ]);
      const covered = await readAll(connector, 'deals', customSettings(server.url, { mapping }, { status_map: { won: '1', '*': '0' } }));
      expect(covered.logs.filter((line) => line.startsWith('WARN'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('reads dates in the CRM format and zone, and writes cursors in the configured one', () => {
    expect(parseDate(1705312800, 'unix')).toEqual(new Date('2024-01-15T10:00:00Z'));
    expect(parseDate('2024-01-15 13:00:00', 'YYYY-MM-DD HH:mm:ss', 'Europe/Moscow')).toEqual(new Date('2024-01-15T10:00:00Z'));
    expect(parseDate('15.01.2024 13:00', 'DD.MM.YYYY HH:mm', 'Europe/Moscow')).toEqual(new Date('2024-01-15T10:00:00Z'));
    expect(parseDate('2024-01-15T13:00:00', 'iso', 'Europe/Moscow')).toEqual(new Date('2024-01-15T10:00:00Z'));
    expect(parseDate('2024-01-15T13:00:00+05:00', 'iso', 'Europe/Moscow')).toEqual(new Date('2024-01-15T08:00:00Z'));
    expect(parseDate('31.02.2024', 'DD.MM.YYYY')).toBeNull();
    expect(parseCalendarDate('1985-03-15T00:00:00+03:00', 'iso')).toBe('1985-03-15');
    const at = new Date('2024-01-15T10:00:00Z');
    expect(formatDate(at, 'unix')).toBe('1705312800');
    expect(formatDate(at, 'unix_ms')).toBe('1705312800000');
    expect(formatDate(at, 'iso', 'Europe/Moscow')).toBe('2024-01-15T13:00:00+03:00');
    expect(formatDate(at, 'YYYY-MM-DD HH:mm:ss', 'Europe/Moscow')).toBe('2024-01-15 13:00:00');
  });

  it('normalises phones and e-mails from multi-value fields', () => {
    expect(normalizePhone(' +7 (916) 123-45-67 ')).toBe('+79161234567');
    expect(normalizedList([{ VALUE: '8 (495) 1' }, { value: '' }, '8 (495) 1', null], normalizePhone)).toEqual(['84951']);
  });

  it('reads custom fields from lists and from keys, by name', () => {
    const list = new CustomFieldReader({ kind: 'list', path: 'cf', id: 'field_id', name: 'field_name', code: 'code', value: 'values', exclude: ['PHONE'] });
    const amo = { cf: [{ field_id: 1, field_name: 'Город', values: [{ value: 'Тверь' }] }, { field_id: 2, code: 'PHONE', values: [{ value: '1' }] }] };
    expect(list.read(amo)).toEqual([{ id: '1', name: 'Город', value: 'Тверь' }]);
    const keys = new CustomFieldReader({ kind: 'keys', include: '^UF_CRM_' }, new Map([['UF_CRM_1', 'Канал']]));
    expect(keys.read({ ID: '1', UF_CRM_1: 'seo', UF_CRM_2: ['a', 'b'], UF_CRM_3: false })).toEqual([
      { id: 'UF_CRM_1', name: 'Канал', value: 'seo' },
      { id: 'UF_CRM_2', name: 'UF_CRM_2', value: 'a, b' },
      { id: 'UF_CRM_3', name: 'UF_CRM_3', value: 'false' },
    ]);
  });

  it('renders templates: exact placeholders keep their type, missing ones drop the key, "=" is JSONata', async () => {
    const rendered = await renderTemplate(
      { from: '{{cursor}}', text: 'since {{cursor}}!', ids: '{{ids}}', gone: '{{nothing}}', inputs: '=[$ids.{"id": $}]' },
      { cursor: '1705312800', ids: ['1'] },
    );
    expect(rendered).toEqual({ from: '1705312800', text: 'since 1705312800!', ids: ['1'], inputs: [{ id: '1' }] });
  });

  it('rejects a record with a bad date or number, naming id, field and value, and keeps the others', async () => {
    const server = await startCrmServer(() => ({
      body: {
        items: [
          { id: 1, created: '2024-01-01T00:00:00Z', sum: '12' },
          { id: 2, created: 'вчера', sum: '1' },
          { id: 3, created: '2024-01-01T00:00:00Z', sum: 'many' },
          { created: '2024-01-01T00:00:00Z' },
        ],
      },
    }));
    try {
      const settings = customSettings(server.url, { mapping: { id: 'id', created_at: 'created', price: 'sum' } });
      const { records, rejected } = await readAll(connector, 'deals', settings);
      expect(records.map((r) => r.id)).toEqual(['1']);
      expect(rejected).toEqual([
        expect.objectContaining({ id: '2', field: 'created_at', reason: '"вчера" is not a valid date (format iso, zone UTC)', ref: 'deals page 1 item 2' }),
        expect.objectContaining({ id: '3', field: 'price', reason: '"many" is not a number' }),
        expect.objectContaining({ id: '', field: 'id', reason: 'the record has no id' }),
      ]);
    } finally {
      await server.close();
    }
  });
});
