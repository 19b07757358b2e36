import type { StreamName } from 'tracker-sync/connector';
import { SheetSourceError } from '../source/sheet-error';
import { fieldOfHeader, PRODUCT_COLUMN, REQUIRED_COLUMNS, STREAM_FIELDS } from './stream-fields';

export interface ProductColumns {
  /** N of product_N_* */
  n: number;
  id: number;
  name: number;
  price: number;
  quantity: number;
  cost: number;
  brand: number;
  variant: number;
  category: number;
}

/** Where each canonical field sits in the rows of one sheet; resolved once from the header. */
export interface SheetLayout {
  header: string[];
  /** canonical field -> column index (absent = not in the sheet) */
  index: Record<string, number>;
  /** columns that become custom fields (deals, clients) or event data */
  extraColumns: number[];
  extraNames: string[];
  products: ProductColumns[];
  /** other columns whose name the header repeats: each kept as its own custom field, `Name (2)`, ... */
  repeated: Array<{ name: string; columns: number[]; as: string[] }>;
  /** columns up to the last named one: empty header cells after it are a trailing delimiter, not columns */
  width: number;
  /** columns before `width` whose header cell is empty: their cells are not read */
  unnamed: number[];
  /** the fields `columns` maps by column letter (`price: E`), not by header name */
  byLetter: string[];
}

export function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

function letterIndex(ref: string): number {
  if (!/^[A-Za-z]{1,3}$/.test(ref)) return -1;
  let n = 0;
  for (const ch of ref.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function isProductColumn(stream: StreamName, field: string): boolean {
  return stream === 'deals' && PRODUCT_COLUMN.test(field);
}

function clean(name: string): string {
  return name.replace(/^\uFEFF/, '').trim();
}

/**
 * Header + `columns` mapping -> layout. A header that uses the canonical names needs no mapping; `columns`
 * maps a field to a header name (case-insensitive) or, failing that, a column letter. A mapping that points
 * nowhere is an error naming the sheet and its columns. A repeated name is never resolved silently: a field's
 * column (canonical, or named in `columns`) twice is an error naming both positions; another repeated name
 * keeps every column as its own custom field (`Name`, `Name (2)`, ...), listed in `repeated`.
 */
export function resolveLayout(
  stream: StreamName,
  headerCells: unknown[],
  columns: Record<string, string> | undefined,
  sheetName: string,
): SheetLayout {
  const header = headerCells.map((cell) => clean(cell === null || cell === undefined ? '' : String(cell)));
  const byName = new Map<string, number[]>();
  header.forEach((name, i) => {
    const key = name.toLowerCase();
    if (key !== '') byName.set(key, [...(byName.get(key) ?? []), i]);
  });
  const index: Record<string, number> = {};
  const byLetter: string[] = [];
  const known = new Set(STREAM_FIELDS[stream]);
  header.forEach((name, i) => {
    const key = name.toLowerCase();
    const field = fieldOfHeader(stream, key);
    if (!known.has(field) && !isProductColumn(stream, field)) return;
    if (index[field] !== undefined) {
      const first = index[field];
      throw new SheetSourceError(
        `${sheetName}: the header has two ${field} columns, ${columnLetter(first)} (${JSON.stringify(header[first])}) and ` +
          `${columnLetter(i)} (${JSON.stringify(name)}); which one holds ${field} is not guessed: rename or remove one`,
      );
    }
    index[field] = i;
  });
  for (const [field, ref] of Object.entries(columns ?? {})) {
    if (!known.has(field) && !isProductColumn(stream, field)) {
      throw new SheetSourceError(
        `${sheetName}: columns.${field} is not a field of ${stream} (fields: ${STREAM_FIELDS[stream].join(', ')})`,
      );
    }
    const named = byName.get(clean(ref).toLowerCase());
    if (named && named.length > 1) {
      throw new SheetSourceError(
        `${sheetName}: columns.${field} = ${JSON.stringify(ref)} names a column the header has twice (columns ${columnLetter(named[0])} ` +
          `and ${columnLetter(named[1])}); which one holds ${field} is not guessed: rename one, or map it by letter (columns.${field}: ${columnLetter(named[0])})`,
      );
    }
    const at = named?.[0] ?? letterIndex(clean(ref));
    if (at < 0 || at >= header.length) {
      throw new SheetSourceError(
        `${sheetName}: columns.${field} = ${JSON.stringify(ref)} is neither a header nor a column letter of the sheet ` +
          `(header: ${header.map((h) => JSON.stringify(h)).join(', ')})`,
      );
    }
    for (const [other, i] of Object.entries(index)) if (i === at && other !== field) delete index[other];
    index[field] = at;
    if (!named) byLetter.push(field);
  }
  requireColumns(stream, index, header, sheetName);
  return finishLayout(header, index, byLetter);
}

function requireColumns(stream: StreamName, index: Record<string, number>, header: string[], sheetName: string): void {
  const missing = REQUIRED_COLUMNS[stream].filter((options) => options.every((field) => index[field] === undefined));
  if (missing.length === 0) return;
  const names = missing.map((options) => options.join(' or ')).join(', ');
  throw new SheetSourceError(
    `${sheetName}: no ${names} column for ${stream} (header: ${header.map((h) => JSON.stringify(h)).join(', ')}); ` +
      `name the columns so or map them with columns.<field>`,
  );
}

function finishLayout(header: string[], index: Record<string, number>, byLetter: string[]): SheetLayout {
  const used = new Set(Object.values(index));
  const extraColumns: number[] = [];
  const unnamed: number[] = [];
  header.forEach((name, i) => {
    if (name === '') unnamed.push(i);
    else if (!used.has(i)) extraColumns.push(i);
  });
  let width = header.length;
  while (width > 0 && header[width - 1] === '') width--;
  const { names, repeated } = distinctNames(extraColumns.map((i) => header[i]), extraColumns);
  return {
    header, index, extraColumns, extraNames: names, products: productGroups(index), repeated, width, unnamed: unnamed.filter((i) => i < width),
    byLetter,
  };
}

/**
 * What each column feeds, as text: its canonical field, its custom-field name (when the stream sends other
 * columns), or nothing. Part of the row fingerprints' seed: a header rename that changes what a row sends
 * (`Сумма` -> `price`) re-sends every row, one that does not (`Price` -> `price`) re-sends none.
 */
export function layoutSignature(layout: SheetLayout, sendsOtherColumns: boolean): string {
  const feeds: string[] = new Array<string>(layout.header.length).fill('');
  for (const [field, at] of Object.entries(layout.index)) feeds[at] = `field ${field}`;
  if (sendsOtherColumns) layout.extraColumns.forEach((col, k) => (feeds[col] = `custom ${layout.extraNames[k]}`));
  while (feeds.length > 0 && feeds[feeds.length - 1] === '') feeds.pop();
  return JSON.stringify(feeds);
}

/** The custom fields' names, a repeated one numbered from its second column on: `Комментарий`, `Комментарий (2)`. */
function distinctNames(names: string[], columns: number[]): { names: string[]; repeated: SheetLayout['repeated'] } {
  const taken = new Set(names);
  const seen = new Map<string, { name: string; columns: number[]; as: string[] }>();
  const out = names.map((name, k) => {
    const entry = seen.get(name);
    if (!entry) {
      seen.set(name, { name, columns: [columns[k]], as: [name] });
      return name;
    }
    let n = entry.as.length + 1;
    while (taken.has(`${name} (${n})`)) n++;
    const distinct = `${name} (${n})`;
    taken.add(distinct);
    entry.columns.push(columns[k]);
    entry.as.push(distinct);
    return distinct;
  });
  return { names: out, repeated: [...seen.values()].filter((entry) => entry.columns.length > 1) };
}

function productGroups(index: Record<string, number>): ProductColumns[] {
  const groups = new Map<number, ProductColumns>();
  for (const [field, at] of Object.entries(index)) {
    const match = PRODUCT_COLUMN.exec(field);
    if (!match) continue;
    const n = Number(match[1]);
    const group = groups.get(n) ?? { n, id: -1, name: -1, price: -1, quantity: -1, cost: -1, brand: -1, variant: -1, category: -1 };
    group[match[2] as Exclude<keyof ProductColumns, 'n'>] = at;
    groups.set(n, group);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, group]) => group).filter((g) => g.id >= 0);
}
