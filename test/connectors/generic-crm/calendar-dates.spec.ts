import { FieldError, toCalendarDate } from '../../../connectors/generic-crm/records/field-values';

/**
 * A calendar date of the generic CRM (a client's birth_date): in the field's format, else as typed by hand.
 * HubSpot's preset reads `date_of_birth` as unix_ms in UTC (its date properties are the epoch milliseconds of
 * their day's midnight UTC).
 */
describe('generic-crm: calendar dates (birth_date)', () => {
  const hubspot = { format: 'unix_ms', timezone: 'UTC' };
  const iso = { format: 'iso', timezone: 'Europe/Moscow' };

  it('reads the epoch milliseconds of a midnight UTC as that day; ISO and hand-typed dates after the format fails', () => {
    expect(toCalendarDate('710208000000', 'birth_date', hubspot)).toBe('1992-07-04');
    expect(toCalendarDate(710208000000, 'birth_date', hubspot)).toBe('1992-07-04');
    expect(toCalendarDate('-631152000000', 'birth_date', hubspot)).toBe('1950-01-01');
    expect(toCalendarDate('1992-07-04', 'birth_date', hubspot)).toBe('1992-07-04');
    expect(toCalendarDate('8 февраля 1992', 'birth_date', hubspot)).toBe('1992-02-08');
    expect(toCalendarDate('8 февраля 1992', 'birth_date', iso)).toBe('1992-02-08');
    expect(toCalendarDate('08.02.1992', 'birth_date', iso)).toBe('1992-02-08');
    expect(toCalendarDate('1992-02-08', 'birth_date', iso)).toBe('1992-02-08');
  });

  it('a number no one meant as an epoch (a year, a typo) and a text no reading makes a date are a FieldError naming the value', () => {
    for (const value of ['1992', '0', 'весной 92-го', '31.02.1992']) {
      expect(() => toCalendarDate(value, 'birth_date', hubspot)).toThrow(FieldError);
    }
    expect(() => toCalendarDate('весной 92-го', 'birth_date', iso)).toThrow('"весной 92-го" is not a valid date (format iso, nor a date as written by hand)');
  });
});
