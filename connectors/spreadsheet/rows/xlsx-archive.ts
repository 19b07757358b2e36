import type ExcelJS from 'exceljs';
import type { Readable } from 'stream';

/** exceljs's row events of one worksheet. */
export type WorksheetEvents = AsyncIterable<Array<{ eventType: string; value: XlsxRow }>>;

/** What is used of an exceljs Row: its values, and a cell's model where `values` loses what a cell holds. */
export interface XlsxRow {
  number: number;
  values: unknown[];
  findCell(col: number): { model: CellModel; numFmt?: string } | undefined;
}

/** a cell's model; formula cells have `formula` or `sharedFormula`, and `result` when a value was saved */
export interface CellModel {
  type: number;
  formula?: string;
  sharedFormula?: string;
  result?: unknown;
}

/** One worksheet of an XLSX file. */
export interface XlsxSheet {
  name: string;
  /** 1-based place among the workbook's tabs, hidden ones included */
  position: number;
  /** hidden (or "very hidden", by a macro): a sheet no one sees in Excel, often a lookup table or an old copy */
  hidden: boolean;
  /** Streams the sheet's rows from the archive; the sheet's stream is closed when the iteration ends. */
  rows(): WorksheetEvents;
}

interface ArchiveEntry {
  path: string;
  stream(): Readable;
}

interface Unzipper {
  Open: { file(path: string): Promise<{ files: ArchiveEntry[] }> };
}

/** The steps of exceljs's streaming WorkbookReader, which this module runs in a fixed order. */
interface WorkbookParts {
  workbookRels?: Array<{ Id: string; Target: string }>;
  model?: { sheets?: Array<{ name: string; rId: string; state?: string }> };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(entry: Readable, sheetNo: string): Iterable<{ value: { parse(): WorksheetEvents } }>;
}

/**
 * Opens an XLSX file by its zip central directory and lists its worksheets in tab order.
 *
 * exceljs's own streaming reader walks the archive in one pass and sometimes loses the last entry (unzipper's
 * parser signals its end before handing it over; exceljs issue #3064). exceljs writes xl/workbook.xml last, so
 * about one read in 800 failed with "Cannot read properties of undefined (reading 'sheets')". Here the workbook
 * parts (relations, workbook, shared strings, styles) are read first, each from its own place in the file,
 * and a worksheet is streamed only when it is read: no part is lost and no sheet is parked in a temp file.
 * A truncated file fails here: its central directory, at the end of the file, is missing.
 */
export async function openXlsxSheets(file: string): Promise<XlsxSheet[]> {
  // loaded on first use: exceljs takes ~0.3 s to load, and most connections read CSV
  /* eslint-disable @typescript-eslint/no-require-imports */
  const excel = require('exceljs') as typeof ExcelJS;
  const unzipper = require('unzipper') as Unzipper;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const { files } = await unzipper.Open.file(file);
  const entries = new Map(files.map((entry) => [entry.path, entry]));
  const part = (path: string) => entries.get(path)?.stream();

  const workbook = new excel.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as WorkbookParts;
  const rels = part('xl/_rels/workbook.xml.rels');
  const book = part('xl/workbook.xml');
  if (!rels || !book) throw new Error('it has no xl/workbook.xml or its relations: not an XLSX workbook');
  await workbook._parseRels(rels);
  await workbook._parseWorkbook(book);
  const strings = part('xl/sharedStrings.xml');
  if (strings) for await (const _ of workbook._parseSharedStrings(strings)); // fills the string cache
  const styles = part('xl/styles.xml');
  if (styles) await workbook._parseStyles(styles);

  const sheets: XlsxSheet[] = [];
  (workbook.model?.sheets ?? []).forEach((sheet, index) => {
    const target = workbook.workbookRels?.find((rel) => rel.Id === sheet.rId)?.Target ?? '';
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    const entry = entries.get(path);
    if (!entry || !path.startsWith('xl/worksheets/')) return; // a chart sheet, or a part the file lacks
    const sheetNo = /(\d+)\.xml$/.exec(path)?.[1] ?? String(index + 1);
    const hidden = sheet.state === 'hidden' || sheet.state === 'veryHidden';
    sheets.push({ name: sheet.name, position: index + 1, hidden, rows: () => worksheetEvents(workbook, entry, sheetNo) });
  });
  return sheets;
}

async function* worksheetEvents(workbook: WorkbookParts, entry: ArchiveEntry, sheetNo: string): WorksheetEvents {
  const stream = entry.stream();
  try {
    for (const { value: worksheet } of workbook._parseWorksheet(stream, sheetNo)) yield* worksheet.parse();
  } finally {
    stream.destroy();
  }
}
