/** What row readers (CSV, XLSX) hand to the mapping: batches of raw rows with their 1-based row numbers. */

/** A CSV record the parser could not read (bad quoting); it becomes a rejected input. */
export class SkippedRecord {
  constructor(
    readonly reason: string,
    /** physical line in the file where the parser noticed it */
    readonly line: number,
  ) {}
}

/** Cells of one row: strings from CSV; strings, numbers, booleans or Dates from XLSX. */
export type Cells = unknown[];

export type SheetRow = Cells | SkippedRecord;

export interface RowBatch {
  rows: SheetRow[];
  /** row number in the sheet of each entry of `rows` (what a person sees in a spreadsheet program) */
  numbers: number[];
}
