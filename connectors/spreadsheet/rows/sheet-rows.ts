/** What row readers (CSV, XLSX) hand to the mapping: batches of raw rows with their 1-based row numbers. */

/**
 * The longest row read (1 MB of the file's text). A longer one is rejected on its own and the next row is read:
 * it would otherwise be held whole in memory, and no field of the service takes that much.
 */
export const MAX_ROW_BYTES = 1 << 20;

/** A row that was not parsed (longer than MAX_ROW_BYTES); it becomes a rejected input. */
export class SkippedRecord {
  constructor(
    readonly reason: string,
    /** the row's first characters */
    readonly excerpt: string,
  ) {}
}

/** The SkippedRecord of a row of `bytes` bytes, over MAX_ROW_BYTES. */
export function overlongRow(bytes: number, excerpt: string): SkippedRecord {
  return new SkippedRecord(`the row is ${bytes.toLocaleString('en-US')} bytes long, more than the ${MAX_ROW_BYTES / (1 << 20)} MB a row may have`, excerpt);
}

/**
 * An XLSX formula cell saved without its cached result (written by a program that does not calculate, e.g. a
 * script), or with an error as its result (`#DIV/0!`): its value is unknown, so the row is rejected naming the
 * cell, never read as an empty cell.
 */
export class UncachedFormula {
  constructor(
    /** the formula without '=', or for a cell sharing another's formula, that cell's address */
    readonly formula: string,
    readonly shared: boolean,
    /** a result was saved, and it is an error (which one, exceljs's streaming reader does not keep) */
    readonly errorResult = false,
  ) {}

  toString(): string {
    return this.shared ? `(the formula of ${this.formula})` : `=${this.formula}`;
  }
}

/** Cells of one row: strings from CSV; strings, numbers, booleans or Dates from XLSX. */
export type Cells = unknown[];

export type SheetRow = Cells | SkippedRecord;

export interface RowBatch {
  rows: SheetRow[];
  /** row number in the sheet of each entry of `rows` (what a person sees in a spreadsheet program) */
  numbers: number[];
  /** bytes of the file read so far, for the progress of the read (text files; an XLSX archive does not say) */
  bytesRead?: number;
}
