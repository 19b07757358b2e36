import { columnLetter, SheetLayout } from './mapping/sheet-layout';
import type { Cells } from './rows/sheet-rows';

/**
 * Columns that hold data under an empty header cell (between named columns, after the last one, or past the
 * header's end in an XLSX): nothing reads them, so the read says so once instead of dropping them silently.
 * A header's trailing delimiter over empty cells is no such column.
 */
export class UnreadColumns {
  private readonly found = new Set<number>();
  private firstRow = 0;

  constructor(private readonly layout: SheetLayout) {}

  note(cells: Cells, rowNumber: number): void {
    const before = this.found.size;
    for (const col of this.layout.unnamed) if (col < cells.length && !isBlank(cells[col])) this.found.add(col);
    for (let col = this.layout.width; col < cells.length; col++) if (!isBlank(cells[col])) this.found.add(col);
    if (before === 0 && this.found.size > 0) this.firstRow = rowNumber;
  }

  /** the warning for the log, or null when every column with data has a name */
  warning(sheetName: string): string | null {
    if (this.found.size === 0) return null;
    const letters = [...this.found].sort((a, b) => a - b).map(columnLetter);
    const which = letters.length > 1 ? `columns ${letters.join(', ')} hold` : `column ${letters[0]} holds`;
    return `${sheetName}: ${which} data under an empty header cell (first at row ${this.firstRow}); it is not read`;
  }
}

function isBlank(cell: unknown): boolean {
  if (cell === '' || cell === null || cell === undefined) return true;
  return typeof cell === 'string' && cell.trim() === '';
}
