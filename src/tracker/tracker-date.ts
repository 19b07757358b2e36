/**
 * Dates as the service wants them. The service reads 'YYYY-MM-DD HH:MM:SS' without an
 * offset as UTC+03:00, so every instant we send carries an explicit '+0000'.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function assertValid(d: Date): void {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) {
    throw new RangeError(`tracker date: invalid Date ${String(d)}`);
  }
}

/** 'YYYY-MM-DD' of the UTC calendar day. */
export function formatPlainDate(d: Date): string {
  assertValid(d);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Years 0000–9999: where toISOString() is 'YYYY-MM-DDTHH:MM:SS.sssZ' (outside it, a six-digit signed year). */
const ISO_FROM = -62_167_219_200_000; // 0000-01-01T00:00:00Z
const ISO_UNTIL = Date.UTC(10_000, 0, 1);

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => pad(n));
/** the UTC day last formatted and its 'YYYY-MM-DD ': a sync's deals mostly fall on a few days in a row */
let lastDay = NaN;
let lastDayText = '';

/** 'YYYY-MM-DD HH:MM:SS+0000': every instant the daemon sends (add-orders dates, leads, calls...). */
export function formatTrackerDate(d: Date): string {
  assertValid(d);
  const t = d.getTime();
  // it runs for every deal of a sync: the day's text is made once per day, the time from a table of two digits
  // (a third of the time of toISOString() and two slices, JSON.stringify of the result included)
  if (t >= ISO_FROM && t < ISO_UNTIL) {
    const day = Math.floor(t / DAY_MS);
    if (day !== lastDay) {
      lastDay = day;
      lastDayText = `${d.toISOString().slice(0, 10)} `;
    }
    const ms = t - day * DAY_MS;
    const hours = Math.floor(ms / 3_600_000);
    const minutes = Math.floor(ms / 60_000) % 60;
    const seconds = Math.floor(ms / 1000) % 60;
    return `${lastDayText}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}+0000`;
  }
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${formatPlainDate(d)} ${time}+0000`;
}

/** 'YYYY-MM-DDTHH:MM:SS.sssZ': period bounds in requests (`period.from`, `period.to`). */
export function formatPeriodBound(d: Date): string {
  assertValid(d);
  return d.toISOString();
}

/** 'YYYY-MM-DD-YYYY-MM-DD': the `period` query parameter of the proxy lead list. */
export function formatProxyLeadPeriod(from: Date, to: Date): string {
  return `${formatPlainDate(from)}-${formatPlainDate(to)}`;
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses response timestamps: 'YYYY-MM-DDTHH:MM:SS+0000' (also with a space, 'Z',
 * a colon in the offset or milliseconds). Without an offset the value is read as UTC,
 * which is what the specification says of response timestamps.
 */
export function parseTrackerTimestamp(s: string): Date {
  const m = TIMESTAMP.exec(String(s).trim());
  if (!m) throw new RangeError(`tracker date: "${s}" is not a timestamp YYYY-MM-DDTHH:MM:SS+0000`);
  const [, y, mo, d, h, mi, se, frac, offset] = m;
  const ms = frac ? Number(frac.padEnd(3, '0').slice(0, 3)) : 0;
  const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +se, ms);
  const date = new Date(utc - offsetMinutes(offset) * 60_000);
  if (Number.isNaN(date.getTime()) || +mo > 12 || +d > 31 || +h > 23 || +mi > 59 || +se > 59) {
    throw new RangeError(`tracker date: "${s}" is not a valid timestamp`);
  }
  return date;
}

function offsetMinutes(offset: string | undefined): number {
  if (!offset || offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}
