import type { ReadGuard } from '../source/read-guard';
import { reasonOf, SheetSourceError } from '../source/sheet-error';
import { Cells, RowBatch, UncachedFormula } from './sheet-rows';
import { CellModel, openXlsxSheets, XlsxRow, XlsxSheet } from './xlsx-archive';
import { whyNotXlsx } from './xlsx-diagnosis';

const BATCH_ROWS = 1000;
/** exceljs's ValueType.Formula (exceljs itself is loaded only when an XLSX is read) */
const FORMULA_TYPE = 6;

/** One worksheet of an XLSX file, opened: which one, and its rows. */
export interface XlsxRows {
  /** the worksheet's name, for the log and `check` */
  sheet: string;
  /** hidden sheets passed over before it (no sheet named: the first visible one is read) */
  hiddenBefore: string[];
  batches: AsyncGenerator<RowBatch>;
}

/**
 * Opens the worksheet `sheet` names (a name, any case, or a 1-based tab number counting hidden tabs too), else the
 * first visible one: a hidden first sheet is a lookup table or an old copy, not what anyone sees on opening the
 * file. Its rows stream as batches (exceljs's streaming worksheet reader: the workbook is never loaded whole).
 * Date-formatted cells arrive as Dates (wall-clock time in UTC fields), numbers as numbers (a zero-padded id stays
 * the number, 123 for `000123`: sheets synced before sent it so), formulas as their cached result (an UncachedFormula
 * without one). A truncated
 * or corrupt file is a SheetSourceError naming the file. With a `guard`, the file must be the one scanned before
 * each batch and at the end.
 */
export async function openXlsxRows(file: string, sheet: string | number | undefined, name: string, guard?: ReadGuard): Promise<XlsxRows> {
  const unreadable = async (error: unknown) => {
    if (error instanceof SheetSourceError) return error;
    const why = await whyNotXlsx(file).catch(() => null);
    return new SheetSourceError(`${name}: cannot read the XLSX file: ${why ?? `it is corrupt (${reasonOf(error)})`}`);
  };
  let sheets: XlsxSheet[];
  try {
    sheets = await openXlsxSheets(file);
  } catch (error) {
    await guard?.checkFile();
    throw await unreadable(error);
  }
  const found = sheet === undefined ? (sheets.find((s) => !s.hidden) ?? sheets[0]) : sheets.find((s) => isWanted(s, sheet));
  if (!found) {
    const wanted = sheet === undefined ? 'any worksheet' : `sheet ${JSON.stringify(sheet)}`;
    const names = sheets.map((s) => s.name).join(', ') || 'none';
    throw new SheetSourceError(`${name}: ${wanted} not found (sheets: ${names}); is it a complete XLSX file?`);
  }
  const hiddenBefore = sheet === undefined ? sheets.filter((s) => s.hidden && s.position < found.position).map((s) => s.name) : [];
  async function* batches(): AsyncGenerator<RowBatch> {
    try {
      yield* worksheetBatches(found!, guard);
    } catch (error) {
      // a file cut or rewritten under the reader is named as changed, not as corrupt
      await guard?.checkFile();
      throw await unreadable(error);
    }
    await guard?.endOfFile();
  }
  return { sheet: found.name, hiddenBefore, batches: batches() };
}

/** The rows of one worksheet (openXlsxRows), opened when the iteration starts. */
export async function* readXlsxRows(file: string, sheet: string | number | undefined, name: string, guard?: ReadGuard): AsyncGenerator<RowBatch> {
  yield* (await openXlsxRows(file, sheet, name, guard)).batches;
}

function isWanted(found: XlsxSheet, sheet: string | number): boolean {
  if (typeof sheet === 'string') return found.name.trim().toLowerCase() === sheet.trim().toLowerCase();
  return found.position === sheet;
}

async function* worksheetBatches(sheet: XlsxSheet, guard: ReadGuard | undefined): AsyncGenerator<RowBatch> {
  let batch: RowBatch = { rows: [], numbers: [] };
  for await (const events of sheet.rows()) {
    for (const { eventType, value } of events) {
      if (eventType !== 'row') continue;
      batch.rows.push(rowCells(value));
      batch.numbers.push(value.number);
    }
    if (batch.rows.length >= BATCH_ROWS) {
      await guard?.checkFile();
      yield batch;
      batch = { rows: [], numbers: [] };
    }
  }
  await guard?.checkFile();
  if (batch.rows.length > 0) yield batch;
}

/** exceljs row values are 1-based and sparse; cells become plain values. */
function rowCells(row: XlsxRow): Cells {
  const values = row.values;
  const cells: Cells = new Array(Math.max(values.length - 1, 0));
  for (let i = 1; i < values.length; i++) {
    const value = values[i];
    const model = value !== null && typeof value === 'object' && !(value instanceof Date) ? row.findCell(i)?.model : undefined;
    cells[i - 1] = model?.type === FORMULA_TYPE ? formulaCell(model) : plainCell(value);
  }
  return cells;
}

/**
 * A formula cell from its model: `values` drops a falsy result (a cached 0 or "" looked like no cached value at
 * all) and the model keeps it. The streaming reader reads a cached error (`<v>#DIV/0!</v>`) as a number: NaN.
 */
function formulaCell(model: CellModel): unknown {
  const { result, formula } = model;
  if (typeof result === 'number' && Number.isNaN(result)) return new UncachedFormula(formula ?? '', false, true);
  if (result !== undefined) return plainCell(result);
  return typeof formula === 'string' ? new UncachedFormula(formula, false) : new UncachedFormula(String(model.sharedFormula), true);
}

function plainCell(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' || value instanceof Date) return value;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText)) return (v.richText as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
  if ('result' in v) return plainCell(v.result);
  if (typeof v.text === 'string') return v.text;
  if (typeof v.error === 'string') return v.error;
  return String(value);
}
