/**
 * The field rules of add-orders (the specification's field table and Limits), written once: the client's
 * payload checks (payload-checks.ts) flag a record before it is sent, the sandbox (orders/order-input.ts)
 * applies the same rules to what it receives. Each side words its own messages.
 *
 * A pure leaf: it imports nothing, so the sandbox may import it (test/import-rules.spec.ts).
 */

/** At most 1000 symbols per custom field (`fields`). */
export const MAX_FIELD_SYMBOLS = 1000;

/** A product's `category` nests up to 5 levels, keyed `level1` to `level5`. */
export const MAX_CATEGORY_LEVELS = 5;
export const CATEGORY_LEVELS: readonly string[] = Array.from({ length: MAX_CATEGORY_LEVELS }, (_, i) => `level${i + 1}`);

/** The service reads a `date_create` without offset as Moscow time (UTC+03:00). */
export const DEFAULT_DATE_OFFSET_MINUTES = 180;

const UNIX_TIME = /^\d{1,12}$/;
/** Seconds may be left out: the service's documentation, as the n8n community node quotes it, says "YYYY-MM-DD HH:MM". */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** Symbols are code points (an emoji is one); only a long text needs the slower exact count. */
export function symbolCount(text: string): number {
  return text.length <= MAX_FIELD_SYMBOLS ? text.length : [...text].length;
}

export function isFieldTooLong(text: string): boolean {
  return text.length > MAX_FIELD_SYMBOLS && symbolCount(text) > MAX_FIELD_SYMBOLS;
}

export function isCategoryLevel(key: string): boolean {
  return CATEGORY_LEVELS.includes(key);
}

/** `quantity` is required on every product, as an integer (like `id` and `name`, which each side reads as text). */
export function isProductQuantity(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/**
 * The instant of an add-orders date (`date_create`, `history[].date`): UNIX time (seconds, number or digits),
 * `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD HH:MM` (UTC+03:00), or the same with an offset (`+0000`, `+03:00`, `Z`).
 * Null when the value is in none of these forms or is not a real date (2024-02-30, 25:00:00).
 */
export function readOrderDate(value: unknown): Date | null {
  const ms = orderDateMs(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/**
 * `readOrderDate` as epoch milliseconds, NaN for no date: the payload checks run it on every order sent, so it
 * makes no Date and no array of the match's parts (in a 1,000,000-deal profile those made it the read thread's
 * third costliest function).
 */
export function orderDateMs(value: unknown): number {
  if (typeof value === 'number') return fromUnix(value);
  if (typeof value !== 'string') return NaN;
  const trimmed = value.trim();
  if (UNIX_TIME.test(trimmed)) return fromUnix(Number(trimmed));
  return fromDateTime(trimmed);
}

function fromUnix(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) return NaN;
  return Math.floor(seconds) * 1000;
}

function fromDateTime(text: string): number {
  const ms = fromFixedDateTime(text);
  if (ms !== NOT_FIXED) return ms;
  const match = DATE_TIME.exec(text);
  if (!match) return NaN;
  const year = +match[1], month = +match[2], day = +match[3], hour = +match[4], minute = +match[5];
  const second = match[6] === undefined ? 0 : +match[6];
  const offset = match[7] === undefined ? DEFAULT_DATE_OFFSET_MINUTES : offsetMinutes(match[7]);
  return instantMs(year, month, day, hour, minute, second, offset);
}

/** The instant of a wall-clock date and time at an offset (minutes east of UTC); NaN when it is no real date. */
function instantMs(year: number, month: number, day: number, hour: number, minute: number, second: number, offset: number): number {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second) - offset * 60_000;
}

/** fromFixedDateTime's answer for text not in the fixed form: the regular expression decides */
const NOT_FIXED = -Infinity;

/**
 * `YYYY-MM-DD HH:MM:SS` (or `T`), bare, with `Z`, `±HHMM` or `±HH:MM`: the forms this tool sends (every
 * order's `date_create` is checked before it goes), read from their fixed positions. The regular expression's
 * match made an array and seven strings per order. NaN for a fixed form that is no real date, NOT_FIXED for
 * any other text.
 */
function fromFixedDateTime(t: string): number {
  const n = t.length;
  if ((n !== 19 && n !== 20 && n !== 24 && n !== 25) || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45 ||
    (t.charCodeAt(10) !== 32 && t.charCodeAt(10) !== 84) || t.charCodeAt(13) !== 58 || t.charCodeAt(16) !== 58) return NOT_FIXED;
  const year = digits(t, 0, 4), month = digits(t, 5, 2), day = digits(t, 8, 2);
  const hour = digits(t, 11, 2), minute = digits(t, 14, 2), second = digits(t, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return NOT_FIXED;
  let offset = DEFAULT_DATE_OFFSET_MINUTES;
  if (n === 20) {
    if (t.charCodeAt(19) !== 90) return NOT_FIXED; // Z
    offset = 0;
  } else if (n > 20) {
    const sign = t.charCodeAt(19) === 43 ? 1 : t.charCodeAt(19) === 45 ? -1 : 0;
    const colon = n === 25;
    if (sign === 0 || (colon && t.charCodeAt(22) !== 58)) return NOT_FIXED;
    const hours = digits(t, 20, 2), minutes = digits(t, colon ? 23 : 22, 2);
    if (hours < 0 || minutes < 0) return NOT_FIXED;
    offset = sign * (hours * 60 + minutes);
  }
  return instantMs(year, month, day, hour, minute, second, offset);
}

/** the number of `count` ASCII digits at `at`, -1 when one of them is not a digit */
function digits(t: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** 2024-02-30 and the like are no dates. Years 0–99 are 1900–1999, as Date.UTC reads them. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1];
  const y = year < 100 ? 1900 + year : year;
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
}

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const digits = offset.replace(':', '');
  const sign = digits.startsWith('-') ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}
