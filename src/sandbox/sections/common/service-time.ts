/**
 * Date forms of the service (Conventions 7): responses carry `YYYY-MM-DDTHH:MM:SS+0000` (UTC),
 * request period bounds `YYYY-MM-DDTHH:MM:SS.sssZ`, plain dates `YYYY-MM-DD`.
 * A date-time without an offset is read in the zone the caller names (the service reads
 * `YYYY-MM-DD HH:MM:SS` as UTC+03:00 unless an operation says UTC+0).
 */

export const SERVICE_LOCAL_OFFSET = '+03:00';
export const UTC_OFFSET = '+00:00';

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** `YYYY-MM-DDTHH:MM:SS+0000`, the response timestamp form. */
export function formatUtcTimestamp(date: Date): string {
  return `${formatPlainDate(date)}T${formatClock(date)}+0000`;
}

const RESPONSE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

/**
 * A stored date-time text in the response form: kept when it already is, else read (at
 * `defaultOffset` when it has no offset) and formatted; text that is no date is kept as it is.
 */
export function asResponseTimestamp(text: string, defaultOffset = SERVICE_LOCAL_OFFSET): string {
  if (RESPONSE_TIMESTAMP.test(text)) return text;
  const date = parseTimestamp(text, defaultOffset);
  return date ? formatUtcTimestamp(date) : text;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC (proxy leads, expense create/update dates). */
export function formatPlainDateTime(date: Date): string {
  return `${formatPlainDate(date)} ${formatClock(date)}`;
}

/** `YYYY-MM-DD` of the UTC calendar day. */
export function formatPlainDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function formatClock(date: Date): string {
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** A real calendar day `YYYY-MM-DD` (2024-02-30 is rejected), as UTC midnight; null otherwise. */
export function parsePlainDate(text: string): Date | null {
  const match = PLAIN_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const roundTrips = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return roundTrips ? date : null;
}

/**
 * A plain date or a date-time with optional seconds, fraction and offset (`Z`, `+0000`, `+03:00`).
 * Without an offset the time is read at `defaultOffset`. Returns null for anything else.
 */
export function parseTimestamp(text: string, defaultOffset = SERVICE_LOCAL_OFFSET): Date | null {
  const plain = parsePlainDate(text);
  if (plain) return plain;
  const match = DATE_TIME.exec(text.trim());
  if (!match || !parsePlainDate(`${match[1]}-${match[2]}-${match[3]}`)) return null;
  const [hours, minutes, seconds] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const fraction = (match[7] ?? '0').padEnd(3, '0').slice(0, 3);
  const offset = normalizeOffset(match[8] ?? defaultOffset);
  const iso = `${match[1]}-${match[2]}-${match[3]}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${fraction}${offset}`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

function normalizeOffset(offset: string): string {
  if (offset === 'Z') return 'Z';
  return offset.includes(':') ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
}

/** Last calendar day of the month of `date` (UTC). */
export function lastDayOfMonth(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0));
}

/** `days` days before `now`, at the given UTC hour (seed data spread over a period). */
export function daysAgo(now: Date, days: number, hour = 12): Date {
  const date = new Date(now.getTime() - days * 86_400_000);
  date.setUTCHours(hour, (days * 7) % 60, (days * 13) % 60, 0);
  return date;
}
