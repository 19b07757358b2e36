import { serviceTimestamp } from '../storage/timestamps';

/** The service reads a `YYYY-MM-DD HH:MM:SS` without offset as Moscow time. */
const DEFAULT_OFFSET_MINUTES = 180;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Reads add-orders' `date_create`: UNIX time (seconds, number or digits), `YYYY-MM-DD HH:MM:SS`
 * (UTC+03:00), or the same with an offset (`+0000`, `+03:00`, `Z`). Returns the instant as the
 * service's UTC timestamp, or null when the value is not one of these forms or not a real date.
 */
export function parseDateCreate(value: unknown): string | null {
  if (typeof value === 'number') return fromUnix(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (/^\d{1,12}$/.test(trimmed)) return fromUnix(Number(trimmed));
  return fromDateTime(trimmed);
}

function fromUnix(seconds: number): string | null {
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  return serviceTimestamp(new Date(Math.floor(seconds) * 1000));
}

function fromDateTime(text: string): string | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(wallClock).getUTCDate() !== day) return null; // 2024-02-30 and the like
  const offset = match[7] === undefined ? DEFAULT_OFFSET_MINUTES : offsetMinutes(match[7]);
  return serviceTimestamp(new Date(wallClock - offset * 60_000));
}

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const digits = offset.replace(':', '');
  const sign = digits.startsWith('-') ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}

/**
 * A date bound in a list filter, in any form a client may send (service timestamp, ISO with
 * milliseconds, plain date, UNIX time), as a UTC service timestamp comparable as text.
 * Unparseable values are kept as given.
 */
export function normalizeDateBound(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const text = String(value).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00:00+0000`;
  const withOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}+0000`;
  return parseDateCreate(withOffset) ?? parseDateCreate(text) ?? value;
}
