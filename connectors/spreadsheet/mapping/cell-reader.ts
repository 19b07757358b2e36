import {
  DateReading,
  isAmbiguousSlashDate,
  parseCalendarDate,
  parseInstant,
  serialToCalendarDate,
  serialToInstant,
  wallDateToCalendarDate,
  wallDateToInstant,
  wallDateText,
} from '../values/dates';
import { readCalendarText } from 'tracker-sync/connector';
import { ROUNDED_IN_LIST, roundedByExcel, roundedReason, tooLargeToBeExact } from '../values/excel-numbers';
import { ambiguity, ambiguousMark, DecimalMark, parseNumber } from '../values/numbers';
import type { SheetLayout } from './sheet-layout';

/**
 * The engine refuses a price of 10^15 or more (src/engine/mappings/mapping-error.ts), printing the number it got:
 * `99999999999999999999` comes out as `100000000000000000000`, without the column. Checked here first, so the
 * rejection quotes the cell as written and names its column. No count or amount of a sheet comes near it, and from
 * 2^53 (about 9 * 10^15) a number no longer even holds its whole digits.
 */
const TOO_LARGE = 1e15;

/** what is wrong with a number read from a cell, or null */
function numberProblem(n: number, allowNegative: boolean): string | null {
  // parseNumber gives NaN for text that is no number (`abc`, `12 тыс. руб.`); Infinity for one that overflows (`1e400`)
  if (Number.isNaN(n)) return 'is not a number';
  if (!Number.isFinite(n)) return 'is not a finite number';
  if (n < 0 && !allowNegative) return 'is negative';
  if (Math.abs(n) >= TOO_LARGE) return 'is too large, over 15 digits';
  return null;
}

/**
 * Reads typed values out of the current row. One instance per stream, reused for every row (no object or
 * closure per row); the first failure is kept as (field, reason) and turns the row into a rejected input.
 */
export class CellReader {
  cells: unknown[] = [];
  failedField = '';
  failedReason = '';
  /** optional fields of the row left out because they could not be read ([field, reason, field, reason, …]) */
  leftOut: string[] = [];

  constructor(
    readonly layout: SheetLayout,
    readonly reading: DateReading,
    private readonly statusMap: Record<string, string> | undefined,
    /** the zone the connection's settings give the sheet (`timezone`), null when they give none */
    readonly sheetZone: string | null = null,
    /** the stream's `decimal_mark`; null: guessed per cell, an ambiguous `1,234` rejected */
    readonly decimalMark: DecimalMark | null = null,
  ) {}

  start(cells: unknown[]): void {
    this.cells = cells;
    this.failedField = '';
    this.failedReason = '';
    if (this.leftOut.length) this.leftOut = [];
  }

  get failed(): boolean {
    return this.failedField !== '';
  }

  fail(field: string, reason: string): void {
    if (this.failedField !== '') return;
    this.failedField = field;
    this.failedReason = reason;
  }

  /** column index of a canonical field, -1 when absent */
  col(field: string): number {
    const at = this.layout.index[field];
    return at === undefined ? -1 : at;
  }

  /** trimmed text, null when empty or absent; a Date cell as the wall time Excel shows (no offset: it has none) */
  text(col: number): string | null {
    if (col < 0 || col >= this.cells.length) return null;
    const value = this.cells[col];
    if (typeof value === 'string') {
      const text = value.trim();
      return text === '' ? null : text;
    }
    if (value === null || value === undefined || value === '') return null;
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : wallDateText(value);
    return String(value);
  }

  required(col: number, field: string): string | null {
    const text = this.text(col);
    if (text === null) this.fail(field, col < 0 ? `no ${field} column` : 'is empty');
    return text;
  }

  /**
   * An id (the record's, its client's, manager's, visit's, a product's) as `text` reads it, failing the row when
   * its digits are lost: Excel's scientific form of a long number (`1,23457E+11`: what Excel shows of a
   * 12-digit number in a General column, and what its CSV export writes), or an XLSX number cell past 2^53. Sent,
   * it would be a second record beside the real one, or a visit no one can have.
   */
  id(col: number, field: string, required = false): string | null {
    const value = col >= 0 && col < this.cells.length ? this.cells[col] : undefined;
    if (typeof value === 'number' && tooLargeToBeExact(value)) {
      this.fail(field, `${this.quoted(col)} is a number cell too large to be exact (over 2^53)${this.where(col, field)}: its last digits are lost; format the column as text and enter the ids again`);
      return null;
    }
    const text = required ? this.required(col, field) : this.text(col);
    if (text !== null && roundedByExcel(text)) this.fail(field, roundedReason(text, this.where(col, field)));
    return text;
  }

  /**
   * A phone (or list of phones): optional, so a value in Excel's scientific form (`7,91612E+10`) is left out
   * (noted in `leftOut`) and the record still sent; never split at its comma into two wrong phones.
   */
  contact(col: number, field: string): string | null {
    const text = this.text(col);
    if (text === null || (text.indexOf('E') < 0 && text.indexOf('e') < 0)) return text;
    const rest = text.replace(ROUNDED_IN_LIST, (rounded) => {
      this.leftOut.push(field, roundedReason(rounded, this.where(col, field)));
      return '';
    });
    if (rest === text) return text;
    const kept = rest.replace(/^[\s,;]+|[\s,;]+$/g, '');
    return kept === '' ? null : kept;
  }

  /** a finite number below TOO_LARGE; negative only when allowed. A failure quotes the cell as written. */
  number(col: number, field: string, allowNegative = false): number | null {
    if (col < 0 || col >= this.cells.length) return null;
    const value = this.cells[col];
    let n: number;
    if (typeof value === 'number') n = value;
    else {
      const text = this.text(col);
      if (text === null) return null;
      n = parseNumber(text, this.decimalMark);
      if (this.decimalMark === null && ambiguousMark(text)) return this.fail(field, ambiguity(text, this.where(col, field))), null;
    }
    const wrong = numberProblem(n, allowNegative);
    if (wrong !== null) return this.fail(field, `${this.quoted(col)} ${wrong}${this.where(col, field)}${this.markHint(wrong)}`), null;
    return n;
  }

  private markHint(wrong: string): string {
    return this.decimalMark !== null && wrong === 'is not a number' ? ` with decimal_mark ${JSON.stringify(this.decimalMark)}` : '';
  }

  /** an instant: date-time text in the sheet's zone, an Excel serial, or a Date cell */
  instant(col: number, field: string): Date | null {
    if (col < 0 || col >= this.cells.length) return null;
    const value = this.cells[col];
    let ms: number;
    if (typeof value === 'string') {
      if (value === '') return null;
      ms = parseInstant(value, this.reading);
      if (Number.isNaN(ms) && value.trim() === '') return null;
    } else if (typeof value === 'number') ms = serialToInstant(value, this.reading);
    else if (value instanceof Date) ms = wallDateToInstant(value, this.reading);
    else if (value === null || value === undefined) return null;
    else ms = NaN;
    if (Number.isNaN(ms)) return this.fail(field, `${this.quoted(col)} is not a valid date${this.where(col, field)}${this.formatHint(value)}`), null;
    return new Date(ms);
  }

  /** a calendar date 'YYYY-MM-DD' */
  day(col: number, field: string): string | null {
    if (col < 0 || col >= this.cells.length) return null;
    const value = this.cells[col];
    let day: string | null;
    if (typeof value === 'string') {
      if (value.trim() === '') return null;
      day = parseCalendarDate(value, this.reading);
    } else if (typeof value === 'number') day = serialToCalendarDate(value);
    else if (value instanceof Date) day = wallDateToCalendarDate(value);
    else if (value === null || value === undefined) return null;
    else day = null;
    if (day === null) this.fail(field, `${this.quoted(col)} is not a valid date${this.where(col, field)}${this.formatHint(value)}`);
    return day;
  }

  /**
   * An optional calendar date (a client's birth date): as `day` reads it, else as a person writes one ("8 февраля
   * 1992": readCalendarText). One neither reads is left out of the record (noted in `leftOut`, with the reason
   * `day` gives), never failing the row: the client is still sent.
   */
  optionalDay(col: number, field: string): string | null {
    if (col < 0 || col >= this.cells.length) return null;
    const value = this.cells[col];
    let day: string | null;
    if (typeof value === 'string') {
      if (value.trim() === '') return null;
      day = parseCalendarDate(value, this.reading) ?? readCalendarText(value);
    } else if (typeof value === 'number') day = serialToCalendarDate(value);
    else if (value instanceof Date) day = wallDateToCalendarDate(value);
    else if (value === null || value === undefined) return null;
    else day = null;
    if (day === null) this.leftOut.push(field, `${this.quoted(col)} is not a valid date${this.where(col, field)}${this.formatHint(value)}`);
    return day;
  }

  /** status through `status_map` ('*' for the rest); unmapped statuses pass unchanged */
  status(raw: string | null): string | null {
    if (raw === null || !this.statusMap) return raw;
    const mapped = this.statusMap[raw] ?? this.statusMap['*'];
    return mapped === undefined ? raw : mapped;
  }

  quoted(col: number): string {
    const value = this.cells[col];
    const text = value instanceof Date && !Number.isNaN(value.getTime()) ? wallDateText(value) : String(value);
    return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
  }

  /**
   * A slash date that the other reading parses ('12/31/2025' read day first, '31/12/2025' read month first): the
   * date_format that reads it; one that reads both ways without a date_format: both. Only on a failure, so nothing
   * here costs a row that parses.
   */
  formatHint(value: unknown): string {
    if (typeof value !== 'string') return '';
    const slash = /^\s*\d{1,2}\/\d{1,2}\/(\d{2}|\d{4})(\s|$)/.exec(value);
    if (!slash) return '';
    const year = slash[1].length === 2 ? 'YY' : 'YYYY';
    if (!this.reading.ordered && isAmbiguousSlashDate(value)) {
      const dayFirst = parseCalendarDate(value, { ...this.reading, ordered: true, monthFirst: false });
      const monthFirst = parseCalendarDate(value, { ...this.reading, ordered: true, monthFirst: true });
      if (dayFirst === null || monthFirst === null) return '';
      return `; it reads as DD/MM/${year} (${dayFirst}) or as MM/DD/${year} (${monthFirst}), which is not guessed: ` +
        `set date_format: "DD/MM/${year}" or "MM/DD/${year}"`;
    }
    const other = { ...this.reading, ordered: true, monthFirst: !this.reading.monthFirst };
    if (Number.isNaN(parseInstant(value, other))) return '';
    const format = `${other.monthFirst ? 'MM/DD' : 'DD/MM'}/${year}`;
    return `; it reads as ${format}: set date_format: "${format}"`;
  }

  /** ' (column "Дата")' when the header does not already say the field */
  where(col: number, field: string): string {
    const name = this.layout.header[col];
    return name !== undefined && name.toLowerCase() !== field ? ` (column ${JSON.stringify(name)})` : '';
  }
}
