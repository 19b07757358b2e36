import type { Client, Manager } from '../../../src/connectors/canonical';
import { normalizePhone } from '../../../src/connectors/contact-values';
import { readStream, tempDir } from './read-helper';

describe('phones: an extension at the end is cut, never glued to the number', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('keeps the main number of a phone written with доб., ext., x or #', () => {
    for (const text of ['тел. 8-916-000-00-06 доб. 12', '8-916-000-00-06 доб 12', '8 916 000-00-06, ДОБ.12', '8 (916) 000-00-06 ext. 12',
      '8 916 000 00 06 EXT 12', '8-916-000-00-06x12', '8-916-000-00-06 x 12', '8-916-000-00-06 #12']) {
      expect([text, normalizePhone(text)]).toEqual([text, '89160000006']);
    }
    expect(normalizePhone('+7 (916) 000-00-06 доб. 345')).toBe('+79160000006');
  });

  it('leaves a phone without an extension as it was', () => {
    expect(normalizePhone('+7 (916) 123-45-67')).toBe('+79161234567');
    expect(normalizePhone('8 916 123-45-67')).toBe('89161234567');
    expect(normalizePhone('8 916 123-45-67 (Max)')).toBe('89161234567');
    expect(normalizePhone('доб. 12')).toBeNull();
  });

  it('reads a clients sheet whose phone cell carries an extension', async () => {
    const file = tmp.write('clients.csv', 'id;name;phone\nC1;Анна;тел. 8-916-000-00-06 доб. 12, +7 916 000-00-07\n');
    const { records, rejected } = await readStream<Client>({ clients: { path: file } }, 'clients');
    expect(rejected).toEqual([]);
    expect(records.map((c) => c.phones)).toEqual([['89160000006', '+79160000007']]);
  });

  it("leaves out a phone Excel rounded to scientific notation, never split at its comma; the client is still sent", async () => {
    const file = tmp.write('rounded.csv', [
      'id;name;phone', 'C1;Анна;7,91612E+10', 'C2;Пётр;+7 916 000-00-07, 7,91612E+10', 'C3;Ольга;8 916 000-00-08', '1,23457E+11;Иван;8 916 000-00-09',
    ].join('\n'));
    const { records, rejected, pages } = await readStream<Client>({ clients: { path: file } }, 'clients');
    expect(records.map((c) => [c.id, c.phones])).toEqual([['C1', []], ['C2', ['+79160000007']], ['C3', ['89160000008']]]);
    const why = (text: string) => `"${text}" looks like a number Excel rounded to scientific notation: its digits are lost; format the column as text before exporting`;
    expect(pages.flatMap((p) => p.skipped_fields ?? [])).toEqual([
      { id: 'C1', field: 'phone', reason: why('7,91612E+10'), ref: 'rounded.csv row 2' },
      { id: 'C2', field: 'phone', reason: why('7,91612E+10'), ref: 'rounded.csv row 3' },
    ]);
    // an id is no optional field: that client is rejected
    expect(rejected.map((r) => [r.ref, r.id, r.field, r.reason])).toEqual([['rounded.csv row 5', '1,23457E+11', 'id', why('1,23457E+11')]]);

    const managers = tmp.write('managers.csv', 'id;name;phone\nM1;Ольга;7,91612E+10\n');
    const read = await readStream<Manager>({ managers: { path: managers } }, 'managers');
    expect(read.records).toEqual([{ id: 'M1', name: 'Ольга', phone: null, email: null }]);
    expect(read.pages.flatMap((p) => p.skipped_fields ?? []).map((s) => s.field)).toEqual(['phone']);
  });
});
