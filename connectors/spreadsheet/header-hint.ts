import type { StreamName } from 'tracker-sync/connector';
import { resolveLayout } from './mapping/sheet-layout';
import { openRows } from './open-rows';
import { Cells, SkippedRecord } from './rows/sheet-rows';
import type { SheetSource } from './settings';
import type { LocalSheet } from './source/resolve-sheet';

/** rows below `header_row` looked at for the column names: a report's title and a blank line or two sit above them */
const LOOK_AHEAD = 20;

/**
 * What to add to a failure to read a sheet's header, when the header row is not where its columns are named: a file
 * whose first row is a title ("Отчёт по сделкам за декабрь") fails with that title as its header, which says nothing
 * of `header_row`. The rows below it (up to LOOK_AHEAD) are read again: the first the stream's columns resolve in is
 * the `header_row` to set; else a header of one cell is named as a title. '' when the header row does resolve (the
 * failure was another) or nothing better is found. Only ever called on a failure: a good read costs nothing.
 */
export async function headerHint(stream: StreamName, source: SheetSource, sheet: LocalSheet): Promise<string> {
  try {
    return await findHint(stream, source, sheet);
  } catch {
    return ''; // the failure already said what it could
  }
}

async function findHint(stream: StreamName, source: SheetSource, sheet: LocalSheet): Promise<string> {
  const first = source.header_row ?? 1;
  const rows = await openRows(sheet, source, stream);
  let header: { row: number; cells: Cells } | null = null;
  try {
    for await (const batch of rows.batches) {
      for (let i = 0; i < batch.rows.length; i++) {
        const [cells, row] = [batch.rows[i], batch.numbers[i]];
        if (row > first + LOOK_AHEAD) return titleHint(header);
        if (row < first || cells instanceof SkippedRecord || filled(cells) === 0) continue;
        if (!header) {
          if (resolves(stream, cells, source, sheet.name)) return '';
          header = { row, cells };
        } else if (resolves(stream, cells, source, sheet.name)) {
          return `; the columns are named in row ${row}: set header_row: ${row}`;
        }
      }
    }
  } finally {
    await rows.batches.return(undefined);
  }
  return titleHint(header);
}

function titleHint(header: { row: number; cells: Cells } | null): string {
  if (!header || filled(header.cells) !== 1) return '';
  return `; row ${header.row} has one cell, a title rather than column names: set header_row to the row that names the columns`;
}

function resolves(stream: StreamName, cells: Cells, source: SheetSource, name: string): boolean {
  try {
    resolveLayout(stream, cells, source.columns, name);
    return true;
  } catch {
    return false;
  }
}

function filled(cells: Cells): number {
  return cells.filter((cell) => cell !== null && cell !== undefined && String(cell).trim() !== '').length;
}
