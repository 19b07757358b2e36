import { parseDate } from '../../connectors/generic-crm/dates';
import { dateReading, parseInstant } from '../../connectors/spreadsheet/values/dates';
import { wallTimeToUtc } from '../../src/time/time-zone';

const wall = (text: string) => Date.parse(`${text}Z`);
const utc = (zone: string, text: string) => new Date(wallTimeToUtc(wall(text), zone)).toISOString();

/**
 * src/time/time-zone.ts: a wall time in a DST gap takes the later offset (the one in force after the change), a
 * wall time in an overlap is its first occurrence, in every zone: east of UTC as west of it, DST of an hour or of
 * half an hour, north and south.
 */
describe('wallTimeToUtc: gap and overlap in every zone', () => {
  it.each([
    // zone, wall time, UTC, what it is
    ['Europe/Berlin', '2026-10-25T02:30:00.000', '2026-10-25T00:30:00.000Z', 'overlap: the first 02:30 (CEST)'],
    ['Europe/Berlin', '2026-03-29T02:30:00.000', '2026-03-29T00:30:00.000Z', 'gap: the later offset (+02:00)'],
    ['America/New_York', '2026-11-01T01:30:00.000', '2026-11-01T05:30:00.000Z', 'overlap: the first 01:30 (EDT)'],
    ['America/New_York', '2026-03-08T02:30:00.000', '2026-03-08T06:30:00.000Z', 'gap: the later offset (-04:00)'],
    ['Australia/Sydney', '2026-04-05T02:30:00.000', '2026-04-04T15:30:00.000Z', 'overlap: the first 02:30 (AEDT)'],
    ['Australia/Sydney', '2026-10-04T02:30:00.000', '2026-10-03T15:30:00.000Z', 'gap: the later offset (+11:00)'],
    ['Australia/Lord_Howe', '2026-04-05T01:45:00.000', '2026-04-04T14:45:00.000Z', 'overlap of half an hour: the first 01:45 (+11:00)'],
    ['Australia/Lord_Howe', '2026-10-04T02:15:00.000', '2026-10-03T15:15:00.000Z', 'gap of half an hour: the later offset (+11:00)'],
    ['Europe/Berlin', '2026-10-25T01:30:00.000', '2026-10-24T23:30:00.000Z', 'before the overlap: CEST'],
    ['Europe/Berlin', '2026-10-25T03:00:00.000', '2026-10-25T02:00:00.000Z', 'after the overlap: CET'],
    ['Europe/Berlin', '2026-03-29T03:00:00.000', '2026-03-29T01:00:00.000Z', 'the gap\'s end: CEST'],
    ['Europe/Moscow', '2026-06-01T12:00:00.000', '2026-06-01T09:00:00.000Z', 'no DST'],
  ])('%s %s is %s (%s)', (zone, text, expected) => {
    expect(utc(zone, text)).toBe(expected);
  });

  it('the spreadsheet and the generic CRM read an offset-less time in a gap or an overlap alike (both by this rule)', () => {
    for (const [zone, text, sheet] of [
      ['Europe/Berlin', '2026-10-25 02:30', '25.10.2026 02:30'],
      ['Europe/Berlin', '2026-03-29 02:30', '29.03.2026 02:30'],
      ['America/New_York', '2026-11-01 01:30', '01.11.2026 01:30'],
      ['America/New_York', '2026-03-08 02:30', '08.03.2026 02:30'],
    ]) {
      const expected = utc(zone, `${text.replace(' ', 'T')}:00.000`);
      expect({ zone, text, sheet: new Date(parseInstant(sheet, dateReading(zone))).toISOString() }).toEqual({ zone, text, sheet: expected });
      expect({ zone, text, iso: parseDate(text, 'iso', zone)!.toISOString() }).toEqual({ zone, text, iso: expected });
      expect({ zone, text, pattern: parseDate(sheet, 'DD.MM.YYYY HH:mm', zone)!.toISOString() }).toEqual({ zone, text, pattern: expected });
    }
  });

  it('an offset written in the text is kept as written (no zone rule applies)', () => {
    expect(parseDate('2026-10-25T02:30:00+01:00', 'iso', 'Europe/Berlin')!.toISOString()).toBe('2026-10-25T01:30:00.000Z');
    expect(parseDate('2026-10-25T02:30:00Z', 'iso', 'Europe/Berlin')!.toISOString()).toBe('2026-10-25T02:30:00.000Z');
    expect(parseDate('25.10.2026 02:30 +01:00', 'DD.MM.YYYY HH:mm Z', 'Europe/Berlin')!.toISOString()).toBe('2026-10-25T01:30:00.000Z');
  });
});
