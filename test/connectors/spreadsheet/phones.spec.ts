import type { Client } from '../../../src/connectors/canonical';
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
});
