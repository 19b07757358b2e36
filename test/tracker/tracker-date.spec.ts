import { formatPeriodBound, formatPlainDate, formatProxyLeadPeriod, formatTrackerDate, parseTrackerTimestamp } from '../../src/tracker';

describe('tracker dates', () => {
  it('formats every instant in UTC with an explicit +0000 offset', () => {
    // 23:30 in UTC+03:00 is 20:30 UTC: the offset of the input must not leak.
    expect(formatTrackerDate(new Date('2024-03-05T23:30:07+03:00'))).toBe('2024-03-05 20:30:07+0000');
    expect(formatTrackerDate(new Date('2024-12-31T22:00:00-05:00'))).toBe('2025-01-01 03:00:00+0000');
    // milliseconds are dropped, not rounded; a year past 9999 keeps its digits
    expect(formatTrackerDate(new Date('2024-03-05T23:59:59.999Z'))).toBe('2024-03-05 23:59:59+0000');
    expect(formatTrackerDate(new Date('1999-01-02T03:04:05Z'))).toBe('1999-01-02 03:04:05+0000');
    expect(formatTrackerDate(new Date(Date.UTC(12_345, 0, 2, 3, 4, 5)))).toBe('12345-01-02 03:04:05+0000');
    expect(() => formatTrackerDate(new Date('nonsense'))).toThrow(RangeError);
  });

  it('formats as toISOString() says, whatever day came before (the day text is kept from one call to the next)', () => {
    const iso = (t: number) => {
      const text = new Date(t).toISOString();
      return `${text.slice(0, 10)} ${text.slice(11, 19)}+0000`;
    };
    const instants = [
      Date.UTC(2025, 0, 1, 23, 59, 59, 999), Date.UTC(2025, 0, 2), Date.UTC(2025, 0, 1, 12), // back to a day before
      -1, 0, -86_400_001, Date.UTC(1969, 11, 31, 23, 0, 30), Date.UTC(1900, 0, 1, 0, 0, 1),
      -62_167_219_200_000, -62_167_219_200_000 + 86_399_999, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(2024, 1, 29, 7, 8, 9),
    ];
    for (let t = Date.UTC(2023, 11, 31); t < Date.UTC(2024, 0, 3); t += 7_777_777) instants.push(t);
    for (const t of instants) expect(formatTrackerDate(new Date(t))).toBe(iso(t));
  });

  it('formats plain dates, period bounds and the proxy lead period', () => {
    expect(formatPlainDate(new Date('2024-02-29T23:59:59Z'))).toBe('2024-02-29');
    expect(formatPeriodBound(new Date('2024-01-02T03:04:05.006Z'))).toBe('2024-01-02T03:04:05.006Z');
    expect(formatProxyLeadPeriod(new Date('2024-01-01T00:00:00Z'), new Date('2024-01-31T12:00:00Z'))).toBe('2024-01-01-2024-01-31');
  });

  it('parses response timestamps with their offset', () => {
    expect(parseTrackerTimestamp('2024-03-05T20:30:07+0000').toISOString()).toBe('2024-03-05T20:30:07.000Z');
    expect(parseTrackerTimestamp('2024-03-05T23:30:07+0300').toISOString()).toBe('2024-03-05T20:30:07.000Z');
    expect(parseTrackerTimestamp('2024-03-05T23:30:07+03:00').toISOString()).toBe('2024-03-05T20:30:07.000Z');
    expect(parseTrackerTimestamp('2024-03-05 20:30:07').toISOString()).toBe('2024-03-05T20:30:07.000Z');
    expect(parseTrackerTimestamp('2024-03-05T20:30:07.250Z').toISOString()).toBe('2024-03-05T20:30:07.250Z');
  });

  it('round-trips and rejects garbage', () => {
    const d = new Date('2023-07-01T00:00:01Z');
    expect(parseTrackerTimestamp(formatTrackerDate(d)).getTime()).toBe(d.getTime());
    expect(() => parseTrackerTimestamp('yesterday')).toThrow(/not a timestamp/);
    expect(() => parseTrackerTimestamp('2024-13-01T00:00:00+0000')).toThrow(/not a valid timestamp/);
    expect(() => formatTrackerDate(new Date('nope'))).toThrow(/invalid Date/);
  });
});
