import type { SheetSource } from '../settings';
import { SheetSourceError } from '../source/sheet-error';
import { columnLetter, SheetLayout } from './sheet-layout';

/**
 * What a read's header fed, kept in the stream's state (`layout`) for the next read to compare with: per canonical
 * field, its column letter and header text, and the file and `columns` setting it was read with.
 */
export interface LayoutMemory {
  settings: string;
  fields: Record<string, [letter: string, header: string]>;
}

export function layoutMemory(layout: SheetLayout, source: Pick<SheetSource, 'path' | 'columns'>): LayoutMemory {
  const fields: LayoutMemory['fields'] = {};
  for (const [field, at] of Object.entries(layout.index)) fields[field] = [columnLetter(at), layout.header[at]];
  return { settings: settingsText(source), fields };
}

/**
 * A header that no longer feeds what the last read's did fails the read, as a `columns` entry naming no column
 * does: every row would be sent again wrong, silently. A field's column gone (`price` renamed `Amount`: the rows
 * would go without price, and `Amount` become a custom field), or another header under a field mapped by letter
 * (a column inserted before E: the discount read as the price). Not checked when the file or the `columns` setting
 * changed since (the user pointed the stream elsewhere, or remapped it), nor against a state that recorded no header
 * (a read before this check, a full resync).
 */
export function checkLayout(last: unknown, now: LayoutMemory, layout: SheetLayout, sheetName: string): void {
  if (!isMemory(last) || last.settings !== now.settings) return;
  const fix = 'run a full resync once (sync --full) to read the file as it is now';
  for (const [field, [letter, header]] of Object.entries(last.fields)) {
    if (now.fields[field]) continue;
    throw new SheetSourceError(
      `${sheetName}: no column feeds ${field} any more: at the last read column ${letter} (${JSON.stringify(header)}) did, and the ` +
        `header now is ${layout.header.map((h) => JSON.stringify(h)).join(', ')}; every row would be sent without ${field}. ` +
        `Name the column ${JSON.stringify(header)} again or map it (columns: { ${field}: "<its header now>" }); ` +
        `if the file has no ${field} on purpose, ${fix}`,
    );
  }
  for (const field of layout.byLetter) {
    const before = last.fields[field];
    const current = now.fields[field];
    if (!before || !current || before[0] !== current[0] || before[1] === current[1]) continue;
    const [letter, header] = current;
    throw new SheetSourceError(
      `${sheetName}: columns.${field} = ${letter} maps ${field} by its letter, and the header under ${letter} is ${JSON.stringify(header)} ` +
        `where the last read had ${JSON.stringify(before[1])} (a column inserted or removed before it?); which column holds ${field} ` +
        `is not guessed: map it by name (columns: { ${field}: ${JSON.stringify(before[1])} }, or the name it has now); ` +
        `if ${letter} is right, ${fix}`,
    );
  }
}

/** the path and the `columns` setting as text, its keys in order: the same mapping compares equal however the YAML ordered it */
function settingsText(source: Pick<SheetSource, 'path' | 'columns'>): string {
  return JSON.stringify([source.path, Object.entries(source.columns ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

function isMemory(value: unknown): value is LayoutMemory {
  const v = value as LayoutMemory | null | undefined;
  return !!v && typeof v.settings === 'string' && !!v.fields && typeof v.fields === 'object';
}
