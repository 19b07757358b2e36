import { wallTimeToUtc } from 'tracker-sync/connector';

/**
 * Dates as real exports write them, parsed by hand (this runs once or twice per row on a million rows):
 *   DD.MM.YYYY, DD.MM.YY, DD/MM/YYYY or MM/DD/YYYY (as date_format says), DD-MM-YYYY, each with an optional
 *   ` HH:MM` or ` HH:MM:SS`; ISO 8601 `YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|±HH:MM|±HHMM|±HH]`;
 *   Excel serial numbers (days since 1899-12-30, fraction = time of day); UNIX seconds (10 digits).
 * Impossible dates (31.02.2025, 25:00) are invalid. Times without an offset are wall-clock times of `zone`.
 */

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;
const MAX_SERIAL = 2_958_466; // 9999-12-31
/** a small number written as text ('1.2', '12') is a typo more likely than a date in 1900 */
const MIN_TEXT_SERIAL = 1000;
const MIN_UNIX_SECONDS = 1_000_000_000;
const MAX_UNIX_SECONDS = 9_999_999_999;
/** Excel's pivot for two-digit years: 00-29 are 20xx, 30-99 are 19xx ('05.03.80' is a birth date in 1980) */
const TWO_DIGIT_YEAR_PIVOT = 30;

/**
 * How slash dates are read: `MM/DD/YYYY` when date_format starts with M, else day first. Without a date_format
 * saying which (`ordered` false), a slash date that reads both ways (01/02/2026: 1 February or 2 January) is no
 * date: one file may hold 12/31/2025 too, and a guess would date its rows a month or more wrong, silently. A
 * dotted or dashed date is day first whatever is set (DD.MM.YYYY, DD-MM-YYYY: no export writes them month first).
 */
export interface DateReading {
  zone: string;
  monthFirst: boolean;
  ordered: boolean;
}

export function dateReading(zone: string, dateFormatHint?: string): DateReading {
  const order = dateFormatHint === undefined ? null : /^\s*([DM])/i.exec(dateFormatHint);
  return { zone, monthFirst: !!order && order[1].toUpperCase() === 'M', ordered: !!order };
}

/** A slash date both of whose first two parts could be the month, and differ: its reading depends on the order. */
export function isAmbiguousSlashDate(text: string): boolean {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(\s|$)/.exec(text);
  if (!match) return false;
  const first = Number(match[1]);
  const second = Number(match[2]);
  return first !== second && first >= 1 && first <= 12 && second >= 1 && second <= 12;
}

// Parse results of the last call (module state: no object per row on the hot path).
let year = 0;
let month = 0;
let day = 0;
let hour = 0;
let minute = 0;
let second = 0;
let milli = 0;
/** minutes east of UTC written in the text, or NaN when the text has no offset */
let offsetMinutes = NaN;
let pos = 0;
let digitsRead = 0;

/** UTC milliseconds of a date-time text or Excel serial, NaN when it is not a valid date. */
export function parseInstant(text: string, reading: DateReading): number {
  const kind = parseParts(text, reading);
  if (kind === KIND_INVALID) return NaN;
  if (kind === KIND_UNIX) return year * 1000;
  if (kind === KIND_SERIAL) return wallTimeToUtc(serialWallMs, reading.zone);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  if (!Number.isNaN(offsetMinutes)) return wall - offsetMinutes * 60_000;
  return wallTimeToUtc(wall, reading.zone);
}

/** UTC milliseconds of a number cell taken as an Excel serial, NaN when out of range. */
export function serialToInstant(serial: number, reading: DateReading): number {
  if (!(serial > 0 && serial < MAX_SERIAL)) return NaN;
  return wallTimeToUtc(serialToWallMs(serial), reading.zone);
}

/** A Date cell of an XLSX file: exceljs gives the wall-clock time as UTC fields. */
export function wallDateToInstant(date: Date, reading: DateReading): number {
  const wall = date.getTime();
  return Number.isNaN(wall) ? NaN : wallTimeToUtc(wall, reading.zone);
}

/** 'YYYY-MM-DD' of a calendar date (a time part is ignored), or null when invalid. */
export function parseCalendarDate(text: string, reading: DateReading): string | null {
  const kind = parseParts(text, reading);
  if (kind === KIND_INVALID || kind === KIND_UNIX) return null;
  if (kind === KIND_SERIAL) return isoDay(serialWallMs);
  return formatDay(year, month, day);
}

/** 'YYYY-MM-DD' of a number cell taken as an Excel serial. */
export function serialToCalendarDate(serial: number): string | null {
  return serial > 0 && serial < MAX_SERIAL ? isoDay(serialToWallMs(serial)) : null;
}

/** 'YYYY-MM-DD' of a Date cell (wall-clock fields in UTC, as exceljs gives them). */
export function wallDateToCalendarDate(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : isoDay(date.getTime());
}

/**
 * A Date cell as text, the wall time Excel shows: 'YYYY-MM-DD HH:MM:SS', or 'YYYY-MM-DD' at midnight. Never an
 * ISO instant: exceljs puts the wall time in UTC fields, so toISOString() would send 14:05 Moscow time as 14:05Z.
 */
export function wallDateText(date: Date): string {
  const wall = Math.round(date.getTime() / 1000) * 1000; // to the second, as serials are read
  const time = new Date(wall).toISOString().slice(11, 19);
  return time === '00:00:00' ? isoDay(wall) : `${isoDay(wall)} ${time}`;
}

export function isoDay(wallMs: number): string {
  const d = new Date(wallMs);
  return formatDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

function formatDay(y: number, m: number, d: number): string {
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

const KIND_INVALID = 0;
const KIND_PARTS = 1;
const KIND_SERIAL = 2;
const KIND_UNIX = 3;
let serialWallMs = 0;

function serialToWallMs(serial: number): number {
  return EXCEL_EPOCH_MS + Math.round(serial * DAY_MS / 1000) * 1000;
}

function parseParts(raw: string, reading: DateReading): number {
  const text = raw.length > 0 && (raw.charCodeAt(0) === 32 || raw.charCodeAt(raw.length - 1) === 32) ? raw.trim() : raw;
  pos = 0;
  hour = minute = second = milli = 0;
  offsetMinutes = NaN;
  const first = readNumber(text);
  if (digitsRead === 0) return KIND_INVALID;
  const sep = text.charCodeAt(pos);
  if (sep === 45 || sep === 47 || sep === 46) {
    const kind = digitsRead === 4 ? parseYearFirst(text, first, sep) : parseDayFirst(text, first, sep, reading);
    // '45726.5' is a serial with a time fraction, not a malformed date
    if (kind !== KIND_INVALID || sep !== 46) return kind;
  }
  return parseNumeric(text);
}

/** YYYY-MM-DD[...time] (also YYYY/MM/DD and YYYY.MM.DD) */
function parseYearFirst(text: string, first: number, sep: number): number {
  year = first;
  pos++;
  month = readNumber(text);
  if (digitsRead < 1 || digitsRead > 2 || text.charCodeAt(pos) !== sep) return KIND_INVALID;
  pos++;
  day = readNumber(text);
  if (digitsRead < 1 || digitsRead > 2) return KIND_INVALID;
  return finishDateTime(text, true);
}

/**
 * DD.MM.YYYY[ HH:MM[:SS]] (MM/DD/YYYY when month-first and the separator is a slash; a slash date whose order is
 * not set and that reads both ways is invalid)
 */
function parseDayFirst(text: string, first: number, sep: number, reading: DateReading): number {
  if (digitsRead > 2) return KIND_INVALID;
  pos++;
  const secondPart = readNumber(text);
  if (digitsRead < 1 || digitsRead > 2 || text.charCodeAt(pos) !== sep) return KIND_INVALID;
  pos++;
  const y = readNumber(text);
  if (digitsRead === 2) year = y < TWO_DIGIT_YEAR_PIVOT ? 2000 + y : 1900 + y;
  else if (digitsRead === 4) year = y;
  else return KIND_INVALID;
  if (sep === 47 && !reading.ordered && first !== secondPart && first >= 1 && first <= 12 && secondPart >= 1 && secondPart <= 12) {
    return KIND_INVALID;
  }
  const swap = reading.monthFirst && sep === 47;
  day = swap ? secondPart : first;
  month = swap ? first : secondPart;
  return finishDateTime(text, false);
}

function finishDateTime(text: string, allowIsoTime: boolean): number {
  if (!validDay()) return KIND_INVALID;
  if (pos === text.length) return KIND_PARTS;
  const c = text.charCodeAt(pos);
  if (c !== 32 && !(allowIsoTime && (c === 84 || c === 116))) return KIND_INVALID;
  while (text.charCodeAt(pos) === 32) pos++;
  if (pos === text.length) return KIND_PARTS;
  if (text.charCodeAt(pos) === 84 || text.charCodeAt(pos) === 116) pos++;
  if (!readTime(text)) return KIND_INVALID;
  if (pos === text.length) return KIND_PARTS;
  return readOffset(text) && pos === text.length ? KIND_PARTS : KIND_INVALID;
}

function readTime(text: string): boolean {
  hour = readNumber(text);
  if (digitsRead < 1 || digitsRead > 2 || hour > 23 || text.charCodeAt(pos) !== 58) return false;
  pos++;
  minute = readNumber(text);
  if (digitsRead !== 2 || minute > 59) return false;
  if (text.charCodeAt(pos) !== 58) return true;
  pos++;
  second = readNumber(text);
  if (digitsRead !== 2 || second > 59) return false;
  if (text.charCodeAt(pos) === 46 || text.charCodeAt(pos) === 44) {
    pos++;
    const start = pos;
    const fraction = readNumber(text);
    if ((digitsRead as number) === 0) return false;
    milli = Math.floor((fraction / Math.pow(10, pos - start)) * 1000);
  }
  return true;
}

function readOffset(text: string): boolean {
  while (text.charCodeAt(pos) === 32) pos++;
  const c = text.charCodeAt(pos);
  if ((c === 90 || c === 122) && pos === text.length - 1) {
    pos++;
    offsetMinutes = 0;
    return true;
  }
  if (c !== 43 && c !== 45) return false;
  pos++;
  const sign = c === 45 ? -1 : 1;
  const start = pos;
  let hh = readNumber(text);
  let mm = 0;
  if (digitsRead === 4) {
    mm = hh % 100;
    hh = Math.floor(hh / 100);
  } else if (digitsRead === 2 && text.charCodeAt(pos) === 58) {
    pos++;
    mm = readNumber(text);
    if (digitsRead !== 2) return false;
  } else if (digitsRead !== 2 || pos !== start + 2) {
    return false;
  }
  if (hh > 14 || mm > 59) return false;
  offsetMinutes = sign * (hh * 60 + mm);
  return true;
}

/** A bare number: an Excel serial (with optional fraction) or UNIX seconds. */
function parseNumeric(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value)) return KIND_INVALID;
  if (value >= MIN_UNIX_SECONDS && value <= MAX_UNIX_SECONDS && Number.isInteger(value)) {
    year = value; // carries the seconds to parseInstant
    return KIND_UNIX;
  }
  if (!(value >= MIN_TEXT_SERIAL && value < MAX_SERIAL)) return KIND_INVALID;
  serialWallMs = serialToWallMs(value);
  return KIND_SERIAL;
}

function readNumber(text: string): number {
  let value = 0;
  const start = pos;
  let c = text.charCodeAt(pos);
  while (c >= 48 && c <= 57) {
    value = value * 10 + (c - 48);
    c = text.charCodeAt(++pos);
  }
  digitsRead = pos - start;
  return value;
}

function validDay(): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}
