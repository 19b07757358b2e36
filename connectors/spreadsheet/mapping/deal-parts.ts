import type { CustomFields, Product, StatusChange } from 'tracker-sync/connector';
import { parseInstant } from '../values/dates';
import { ambiguity, ambiguousMark, parseNumber } from '../values/numbers';
import type { CellReader } from './cell-reader';
import type { ProductColumns } from './sheet-layout';

/** Columns no field claims become custom fields, keyed by their header; an empty cell is null. */
export function readCustomFields(r: CellReader, columns: number[], names: string[]): CustomFields {
  const fields: CustomFields = {};
  for (let i = 0; i < columns.length; i++) fields[names[i]] = r.text(columns[i]);
  return fields;
}

/** Builds a reader of the products of a deal row, or null when the sheet has no product columns. */
export function productsReader(r: CellReader): (() => Product[]) | null {
  const json = r.col('products');
  const groups = r.layout.products;
  if (json < 0 && groups.length === 0) return null;
  const names = groups.map((g) => fieldNames(g.n));
  return () => {
    const products: Product[] = json >= 0 ? productsFromJson(r, json) : [];
    for (let i = 0; i < groups.length; i++) {
      const product = productFromGroup(r, groups[i], names[i]);
      if (product) products.push(product);
    }
    return products;
  };
}

function fieldNames(n: number) {
  const p = `product_${n}_`;
  return { id: `${p}id`, name: `${p}name`, price: `${p}price`, quantity: `${p}quantity`, cost: `${p}cost` };
}

function productFromGroup(r: CellReader, g: ProductColumns, f: ReturnType<typeof fieldNames>): Product | null {
  const id = r.id(g.id, f.id);
  if (id === null) return null;
  const name = r.required(g.name, f.name);
  const quantity = r.number(g.quantity, f.quantity) ?? 1;
  if (!Number.isInteger(quantity)) r.fail(f.quantity, `${r.quoted(g.quantity)} is not a whole number`);
  const product: Product = { id, name: name ?? '', quantity, price: r.number(g.price, f.price), cost: r.number(g.cost, f.cost) };
  if (g.brand >= 0) product.brand = r.text(g.brand);
  if (g.variant >= 0) product.variant = r.text(g.variant);
  if (g.category >= 0) product.categories = categoryPath(r.text(g.category));
  return product;
}

/**
 * 'Electronics > Phones > Android' -> ['Electronics', 'Phones', 'Android'] (by hand: it runs per product per row;
 * each level's spaces are skipped before it is cut out, so a level is one string, not a slice and its trim)
 */
export function categoryPath(text: string | null): string[] {
  const path: string[] = [];
  if (text === null) return path;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('>', start);
    if (end < 0) end = text.length;
    let from = start;
    let to = end;
    while (from < to && isTrimmed(text.charCodeAt(from))) from++;
    while (to > from && isTrimmed(text.charCodeAt(to - 1))) to--;
    if (to > from) path.push(text.slice(from, to));
    start = end + 1;
  }
  return path;
}

/** what String#trim drops: the ASCII blanks and line breaks, and the rest of Unicode's spaces */
function isTrimmed(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || (code > 127 && String.fromCharCode(code).trim() === '');
}

function productsFromJson(r: CellReader, col: number): Product[] {
  const items = parseJsonArray(r, col, 'products');
  const products: Product[] = [];
  for (const item of items) {
    const p = item as Record<string, unknown>;
    const id = plainText(p.id);
    const name = plainText(p.name);
    const quantity = p.quantity === undefined || p.quantity === null ? 1 : jsonNumber(r, p.quantity, 'products');
    if (id === null || name === null || !Number.isInteger(quantity) || quantity < 0) {
      r.fail('products', `${JSON.stringify(p)} needs an id, a name and a whole quantity`);
      continue;
    }
    const price = optionalNumber(r, p.price, 'products');
    const cost = optionalNumber(r, p.cost, 'products');
    const product: Product = { id, name, quantity, price, cost, brand: plainText(p.brand), variant: plainText(p.variant) };
    product.categories = Array.isArray(p.categories)
      ? p.categories.map(String)
      : typeof p.category === 'string'
        ? categoryPath(p.category)
        : levels(p.category);
    products.push(product);
  }
  return products;
}

/** `{ level1: 'A', level2: 'B' }` as the service writes categories */
function levels(category: unknown): string[] {
  if (!category || typeof category !== 'object') return [];
  const c = category as Record<string, unknown>;
  return [1, 2, 3, 4, 5].map((n) => plainText(c[`level${n}`])).filter((v): v is string => v !== null);
}

/** Builds a reader of a deal row's status history, or null when the sheet has no history column. */
export function historyReader(r: CellReader): (() => StatusChange[]) | null {
  const json = r.col('history');
  const compact = r.col('status_history');
  if (json < 0 && compact < 0) return null;
  return () => [...(json >= 0 ? historyFromJson(r, json) : []), ...(compact >= 0 ? historyFromText(r, compact) : [])];
}

function historyFromJson(r: CellReader, col: number): StatusChange[] {
  const changes: StatusChange[] = [];
  for (const item of parseJsonArray(r, col, 'history')) {
    const h = item as Record<string, unknown>;
    const ms = typeof h.date === 'string' ? parseInstant(h.date, r.reading) : NaN;
    const status = plainText(h.status);
    if (Number.isNaN(ms) || status === null) {
      r.fail('history', `${JSON.stringify(h)} needs a valid date and a status${r.formatHint(h.date)}`);
      continue;
    }
    changes.push({
      date: new Date(ms),
      status: r.status(status)!,
      price: optionalNumber(r, h.price, 'history', true),
      cost: optionalNumber(r, h.cost, 'history', true),
    });
  }
  return changes;
}

/** '01.03.2025:new;05.03.2025 14:30:paid' — the status follows the last colon of each entry */
function historyFromText(r: CellReader, col: number): StatusChange[] {
  const text = r.text(col);
  if (text === null) return [];
  const changes: StatusChange[] = [];
  for (const entry of text.split(';')) {
    const part = entry.trim();
    if (part === '') continue;
    const colon = part.lastIndexOf(':');
    const ms = colon > 0 ? parseInstant(part.slice(0, colon), r.reading) : NaN;
    const status = colon > 0 ? part.slice(colon + 1).trim() : '';
    if (Number.isNaN(ms) || status === '') {
      r.fail('status_history', `${JSON.stringify(part)} is not "DD.MM.YYYY[ HH:MM]:status"${colon > 0 ? r.formatHint(part.slice(0, colon)) : ''}`);
      continue;
    }
    changes.push({ date: new Date(ms), status: r.status(status)! });
  }
  return changes;
}

function parseJsonArray(r: CellReader, col: number, field: string): unknown[] {
  const text = r.text(col);
  if (text === null) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value) && value.every((item) => item && typeof item === 'object')) return value;
  } catch {
    // reported below
  }
  r.fail(field, `${r.quoted(col)} is not a JSON array of objects`);
  return [];
}

function plainText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

/** a JSON number, or a string read as a cell's text is (the stream's decimal_mark; an ambiguous `1,234` fails the row) */
function jsonNumber(r: CellReader, value: unknown, field: string): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return NaN;
  const text = value.trim();
  if (r.decimalMark === null && ambiguousMark(text)) r.fail(field, ambiguity(text));
  return parseNumber(text, r.decimalMark);
}

function optionalNumber(r: CellReader, value: unknown, field: string, allowNegative = false): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = jsonNumber(r, value, field);
  if (!Number.isFinite(n) || (n < 0 && !allowNegative)) {
    r.fail(field, `${JSON.stringify(value)} is not a valid amount`);
    return null;
  }
  return n;
}
