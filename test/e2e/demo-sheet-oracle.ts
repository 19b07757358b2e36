import { parse } from 'csv-parse/sync';
import { readFileSync } from 'fs';
import { decode } from 'iconv-lite';
import type { Client, Deal, Manager, Product, StatusChange } from '../../src/connectors/canonical';

/**
 * An independent reading of the bundled demo export (config/demo/*.csv: Windows-1251, ';', CRLF,
 * 'DD.MM.YYYY HH:MM' Moscow times, '48 490,00' amounts with a non-breaking space): what each row must
 * become in the service. Written from the file format, not from the connector, so the two can disagree.
 */

export type Row = Record<string, string>;

export interface DemoDealRow {
  row: number;
  id: string;
  /** null when the connector must reject the row; `reason` says which column */
  deal: Deal | null;
  problem?: { field: string; reason: RegExp };
}

/** Moscow has been UTC+03:00 all year since 2014. */
const MOSCOW_OFFSET_MS = 3 * 3_600_000;

export function readDemoCsv(path: string): Row[] {
  return parse(decode(readFileSync(path), 'win1251'), { delimiter: ';', columns: true, skip_empty_lines: true }) as Row[];
}

/** 'DD.MM.YYYY' or 'DD.MM.YYYY HH:MM' in Moscow; null for an impossible date. */
export function moscowTime(text: string): Date | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})(?: (\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const [day, month, year, hour, minute] = [+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0)];
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (wall.getUTCDate() !== day || wall.getUTCMonth() !== month - 1 || hour > 23 || minute > 59) return null;
  return new Date(wall.getTime() - MOSCOW_OFFSET_MS);
}

/** '48 490,00' (U+00A0 between groups) → 48490; null for an empty cell, NaN for text. */
export function amount(text: string): number | null {
  const compact = text.replace(/[\s\u00a0]/g, '');
  if (compact === '') return null;
  return /^\d+(,\d+)?$/.test(compact) ? Number(compact.replace(',', '.')) : NaN;
}

function plainDate(text: string): string | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

const emptyToNull = (text: string | undefined) => (text === undefined || text.trim() === '' ? null : text.trim());
const list = (text: string) => text.split(/[,;]/).map((s) => s.trim()).filter((s) => s !== '');
/** as the service receives them: digits only (a leading + kept), e-mails in lower case */
const phoneList = (text: string) => list(text).map((p) => (p.startsWith('+') ? '+' : '') + p.replace(/\D/g, ''));
const emailList = (text: string) => list(text).map((e) => e.toLowerCase());

export function demoManagers(path: string): Manager[] {
  return readDemoCsv(path).map((r) => ({ id: r.id, name: r.name, phone: emptyToNull(r.phone), email: emptyToNull(r.email) }));
}

export function demoClients(path: string): Client[] {
  return readDemoCsv(path).map((r) => ({
    id: r.id, name: r.name, phones: phoneList(r.phone), emails: emailList(r.email), company: emptyToNull(r.company),
    birth_date: plainDate(r.birth_date), custom_fields: { 'Город': emptyToNull(r['Город']) },
  }));
}

/** Each deals row, in file order, with the canonical deal it must give (status through `statusMap`). */
export function demoDeals(path: string, statusMap: Record<string, string>): DemoDealRow[] {
  const status = (s: string) => statusMap[s] ?? statusMap['*'] ?? s;
  const seen = new Set<string>();
  return readDemoCsv(path).map((r, index) => {
    const row = index + 2; // the header is row 1
    const created = moscowTime(r.created_at);
    const price = amount(r.price);
    const cost = amount(r.cost);
    const duplicate = seen.has(r.id);
    seen.add(r.id);
    const reject = (field: string, reason: RegExp): DemoDealRow => ({ row, id: r.id, deal: null, problem: { field, reason } });
    if (r.id === '') return reject('id', /empty/);
    if (duplicate) return reject('id', /duplicate/);
    if (!created) return reject('created_at', new RegExp(r.created_at));
    if (Number.isNaN(price)) return reject('price', new RegExp(r.price));
    const deal: Deal = {
      id: r.id, title: r.title, created_at: created, updated_at: moscowTime(r.updated_at), status: status(r.status),
      visit_id: emptyToNull(r.visit_id), price, cost, client_id: emptyToNull(r.client_id), manager_id: emptyToNull(r.manager_id),
      custom_fields: { 'Город': emptyToNull(r['Город']), 'Комментарий': emptyToNull(r['Комментарий']) },
      products: products(r), history: history(r.status_history, status),
    };
    return { row, id: r.id, deal };
  });
}

function products(r: Row): Product[] {
  const out: Product[] = [];
  for (let n = 1; r[`product_${n}_id`] !== undefined; n++) {
    if (!r[`product_${n}_id`]) continue;
    out.push({
      id: r[`product_${n}_id`], name: r[`product_${n}_name`], quantity: Number(r[`product_${n}_quantity`] || 1),
      price: amount(r[`product_${n}_price`]), categories: r[`product_${n}_category`].split('>').map((s) => s.trim()).filter(Boolean),
    });
  }
  return out;
}

/** '16.09.2026:new;17.09.2026 20:36:in_work': the status follows the last colon of each entry. */
function history(text: string, status: (s: string) => string): StatusChange[] {
  return text.split(';').filter(Boolean).map((entry) => {
    const at = entry.lastIndexOf(':');
    return { date: moscowTime(entry.slice(0, at))!, status: status(entry.slice(at + 1)) };
  });
}
