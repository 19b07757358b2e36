import type ExcelJS from 'exceljs';
import { createReadStream } from 'fs';
import { Readable } from 'stream';
import { reasonOf, SheetSourceError } from '../source/sheet-error';
import { Cells, RowBatch } from './sheet-rows';

const BATCH_ROWS = 1000;

interface StreamedWorksheet {
  id: string | number;
  name: string;
  parse(): AsyncIterable<Array<{ eventType: string; value: { number: number; values: unknown[] } }>>;
}

interface StreamedWorkbook extends AsyncIterable<StreamedWorksheet> {
  model?: { sheets?: Array<{ id: number | string; name: string }> };
}

/**
 * Streams one worksheet of an XLSX file as batches of raw rows (exceljs's streaming WorkbookReader: the
 * workbook is never loaded whole). Date-formatted cells arrive as Dates (wall-clock time in UTC fields),
 * numbers as numbers, formulas as their cached result. A truncated or corrupt file is a SheetSourceError
 * naming the file.
 */
export async function* readXlsxRows(file: string, sheet: string | number | undefined, name: string): AsyncGenerator<RowBatch> {
  // loaded on first use: exceljs takes ~0.3 s to load, and most connections read CSV
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const excel = require('exceljs') as typeof ExcelJS;
  const input = createReadStream(file);
  const reader = new excel.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as StreamedWorkbook;
  const seen: string[] = [];
  let found = false;
  try {
    for await (const worksheet of reader) {
      seen.push(worksheet.name);
      if (found || !isWanted(worksheet, sheet, reader, seen.length)) {
        release(worksheet);
        continue;
      }
      found = true;
      yield* worksheetBatches(worksheet);
      // no break: the rest of the archive is skipped through (unparsed) so a truncated file always fails
    }
  } catch (error) {
    if (error instanceof SheetSourceError) throw error;
    throw new SheetSourceError(`${name}: cannot read the XLSX file (truncated or corrupt?): ${reasonOf(error)}`);
  } finally {
    input.destroy();
  }
  if (!found) {
    const wanted = sheet === undefined ? 'any worksheet' : `sheet ${JSON.stringify(sheet)}`;
    throw new SheetSourceError(`${name}: ${wanted} not found (sheets: ${seen.join(', ') || 'none'}); is it a complete XLSX file?`);
  }
}

/**
 * A worksheet that is skipped. When the archive holds worksheets before the shared strings, exceljs parks each
 * in a temp file and deletes it as soon as the loop moves on, while the file's read stream may still be
 * opening: its ENOENT had no listener and crashed the process. The stream is closed here, its errors heard.
 */
function release(worksheet: StreamedWorksheet): void {
  const source = (worksheet as { iterator?: unknown }).iterator;
  if (source instanceof Readable) {
    source.on('error', () => undefined);
    source.destroy();
  }
}

async function* worksheetBatches(worksheet: StreamedWorksheet): AsyncGenerator<RowBatch> {
  let batch: RowBatch = { rows: [], numbers: [] };
  for await (const events of worksheet.parse()) {
    for (const { eventType, value } of events) {
      if (eventType !== 'row') continue;
      batch.rows.push(rowCells(value.values));
      batch.numbers.push(value.number);
    }
    if (batch.rows.length >= BATCH_ROWS) {
      yield batch;
      batch = { rows: [], numbers: [] };
    }
  }
  if (batch.rows.length > 0) yield batch;
}

function isWanted(worksheet: StreamedWorksheet, sheet: string | number | undefined, reader: StreamedWorkbook, seenCount: number): boolean {
  if (typeof sheet === 'string') return worksheet.name.trim().toLowerCase() === sheet.trim().toLowerCase();
  const wantedPosition = sheet ?? 1;
  const sheets = reader.model?.sheets;
  const position = sheets ? sheets.findIndex((s) => String(s.id) === String(worksheet.id)) + 1 : 0;
  return (position > 0 ? position : seenCount) === wantedPosition;
}

/** exceljs row values are 1-based and sparse; cells become plain values. */
function rowCells(values: unknown[]): Cells {
  const cells: Cells = new Array(Math.max(values.length - 1, 0));
  for (let i = 1; i < values.length; i++) cells[i - 1] = plainCell(values[i]);
  return cells;
}

function plainCell(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' || value instanceof Date) return value;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText)) return (v.richText as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
  if ('result' in v) return plainCell(v.result);
  if ('formula' in v || 'sharedFormula' in v) return '';
  if (typeof v.text === 'string') return v.text;
  if (typeof v.error === 'string') return v.error;
  return String(value);
}
