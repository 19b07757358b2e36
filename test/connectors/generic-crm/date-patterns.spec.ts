import { formatDate, parseDate } from '../../../connectors/generic-crm/dates';

/** connectors/README.md: `dates.format` and `cursor_format` take moment-style patterns (what CRM docs print). */
describe('generic-crm date patterns in moment style', () => {
  const at = new Date('2024-01-15T10:00:00Z');

  it.each([
    ['YYYY-MM-DDTHH:mm:ss', '2024-01-15T13:00:00'],
    ['DD.MM.YYYY HH:mm Z', '15.01.2024 13:00 +03:00'],
    ['YYYY-MM-DD HH:mm:ss ZZ', '2024-01-15 13:00:00 +0300'],
    ['MM/DD/YYYY hh:mm A', '01/15/2024 01:00 PM'],
    ['[on] D.M.YY', 'on 15.1.24'],
    ['yyyy-MM-dd HH:mm', '2024-01-15 13:00'],
  ])('%s writes %s (Europe/Moscow) and reads it back', (pattern, text) => {
    expect(formatDate(at, pattern, 'Europe/Moscow')).toBe(text);
    const back = parseDate(text, pattern, 'Europe/Moscow')!;
    expect(back.toISOString()).toBe(pattern.includes('mm') ? at.toISOString() : '2024-01-14T21:00:00.000Z');
  });

  it('an offset in the text wins over the zone', () => {
    expect(parseDate('15.01.2024 13:00 +05:00', 'DD.MM.YYYY HH:mm Z', 'Europe/Moscow')!.toISOString()).toBe('2024-01-15T08:00:00.000Z');
  });
});
