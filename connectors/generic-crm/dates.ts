import { DateTime, IANAZone } from 'luxon';
import { isTimeZone, wallTimeToUtc } from 'tracker-sync/connector';

/**
 * Dates as CRMs write them. Formats: `unix` (seconds), `unix_ms`, `iso` (ISO 8601; without an offset
 * it is read in the zone), or a pattern in moment style ('YYYY-MM-DD HH:mm:ss', 'DD.MM.YYYY') or
 * luxon style ('yyyy-MM-dd'). Patterns and offset-less ISO are read in `zone` (default UTC).
 *
 * A time without an offset in a DST gap or overlap of `zone` is read by the daemon's one rule
 * (src/time/time-zone.ts `wallTimeToUtc`: a gap takes the later offset, an overlap its first occurrence), as the
 * spreadsheet reads it, not by luxon's (a gap moved forward, an overlap's second occurrence): luxon reads the text
 * as a wall time only, and an IANA zone turns it into the instant there. A zone luxon takes that is no IANA name
 * (`UTC+3`) has no DST: luxon's reading stands.
 */

export function parseDate(value: unknown, format = 'iso', zone = 'UTC'): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const dateTime = toDateTime(value, format, zone);
  return dateTime?.isValid ? dateTime.toJSDate() : null;
}

/**
 * A calendar date 'YYYY-MM-DD' as the source meant it: a text's date as written (in its own offset, if it has
 * one), an instant's (unix, unix_ms, a Date) in the source's zone; never shifted to UTC.
 */
export function parseCalendarDate(value: unknown, format = 'iso', zone = 'UTC'): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'string' && format !== 'unix' && format !== 'unix_ms' ? parseText(value, format) : null;
  const dateTime = text ?? toDateTime(value, format, zone);
  return dateTime?.isValid ? dateTime.toISODate() : null;
}

export function formatDate(date: Date, format = 'iso', zone = 'UTC'): string {
  if (format === 'unix') return String(Math.floor(date.getTime() / 1000));
  if (format === 'unix_ms') return String(date.getTime());
  const dateTime = DateTime.fromJSDate(date, { zone });
  if (format === 'iso') return dateTime.toISO({ suppressMilliseconds: true }) ?? date.toISOString();
  return dateTime.toFormat(luxonPattern(format));
}

/** The zone a text without an offset is parsed in: its wall time, read as if UTC (an IANA zone, unlike a parsed `Z`). */
const WALL = IANAZone.create('Etc/UTC');

function toDateTime(value: unknown, format: string, zone: string): DateTime | null {
  if (value instanceof Date) return DateTime.fromJSDate(value, { zone });
  if (format === 'unix' || format === 'unix_ms') {
    const number = typeof value === 'number' ? value : Number(String(value).trim());
    if (!Number.isFinite(number)) return null;
    return DateTime.fromMillis(format === 'unix' ? number * 1000 : number, { zone });
  }
  const text = parseText(value, format);
  if (!text?.isValid || !isWallTime(text)) return text; // an offset in the text: the instant it writes
  if (!isTimeZone(zone)) return DateTime.fromObject(text.toObject(), { zone });
  return DateTime.fromMillis(wallTimeToUtc(text.toMillis(), zone), { zone });
}

/** The text as written: in its own offset when it has one, else its wall time (zone WALL). */
function parseText(value: unknown, format: string): DateTime | null {
  if (typeof value !== 'string') return null;
  if (format === 'iso') return DateTime.fromISO(value.trim().replace(' ', 'T'), { zone: WALL, setZone: true });
  return DateTime.fromFormat(value.trim(), luxonPattern(format), { zone: WALL, setZone: true });
}

function isWallTime(dateTime: DateTime): boolean {
  return dateTime.zone === WALL;
}

/**
 * moment-style tokens (what most CRM docs print) to luxon's, run by run of one letter: YYYY, YY, DD, D, A (AM/PM),
 * Z (+03:00), ZZ (+0300); a lone T and moment's [escaped text] are literal (luxon reads T as a localised time).
 * Luxon's own tokens (yyyy, dd, MM, HH, mm, ss, …) pass as they are.
 */
const MOMENT_TOKENS: Record<string, string> = { YYYY: 'yyyy', YY: 'yy', DD: 'dd', D: 'd', A: 'a', Z: 'ZZ', ZZ: 'ZZZ', T: "'T'" };

function luxonPattern(pattern: string): string {
  return pattern.replace(/\[([^\]]*)\]|([A-Za-z])\2*/g, (run, escaped: string | undefined) =>
    escaped !== undefined ? `'${escaped.replace(/'/g, "''")}'` : MOMENT_TOKENS[run] ?? run);
}
