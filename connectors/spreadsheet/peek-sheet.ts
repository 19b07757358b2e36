import type { StreamName } from 'tracker-sync/connector';
import { resolveLayout, SheetLayout } from './mapping/sheet-layout';
import { headerHint } from './header-hint';
import { openRows } from './open-rows';
import { Cells, SkippedRecord } from './rows/sheet-rows';
import type { SheetSource } from './settings';
import { LocalSheet, resolveSheet } from './source/resolve-sheet';
import { SheetSourceError } from './source/sheet-error';

export interface SheetPeek {
  sheet: LocalSheet;
  /** XLSX: the worksheet read */
  worksheet?: string;
  layout: SheetLayout;
  /** the first data row, null when the sheet has only a header */
  example: Cells | null;
}

/** Header and first data row of a stream's sheet (check and discover); reads no further. */
export async function peekSheet(stream: StreamName, source: SheetSource, workDir?: string): Promise<SheetPeek> {
  const sheet = await resolveSheet(source, stream, workDir);
  try {
    return await peekResolved(stream, source, sheet);
  } catch (error) {
    // a header that names none of the wanted columns: where they are named, if nearby (a title row above them)
    const hint = error instanceof SheetSourceError ? await headerHint(stream, source, sheet) : '';
    throw hint ? new SheetSourceError(`${(error as Error).message}${hint}`) : error;
  }
}

async function peekResolved(stream: StreamName, source: SheetSource, sheet: LocalSheet): Promise<SheetPeek> {
  const rows = await openRows(sheet, source, stream);
  const headerRow = source.header_row ?? 1;
  let header: Cells | null = null;
  try {
    for await (const batch of rows.batches) {
      for (let i = 0; i < batch.rows.length; i++) {
        const row = batch.rows[i];
        if (batch.numbers[i] < headerRow) continue;
        if (row instanceof SkippedRecord) {
          if (!header) throw new SheetSourceError(`${sheet.name} row ${batch.numbers[i]}: cannot be the header: ${row.reason}`);
          continue;
        }
        if (isBlank(row)) continue;
        if (!header) header = row;
        else return { sheet, worksheet: rows.sheet, layout: resolveLayout(stream, header, source.columns, sheet.name), example: row };
      }
    }
  } finally {
    await rows.batches.return(undefined);
  }
  if (!header) throw new SheetSourceError(`${sheet.name}: no header row found at row ${headerRow} or below`);
  return { sheet, worksheet: rows.sheet, layout: resolveLayout(stream, header, source.columns, sheet.name), example: null };
}

function isBlank(cells: Cells): boolean {
  return cells.every((cell) => cell === null || cell === undefined || String(cell).trim() === '');
}
