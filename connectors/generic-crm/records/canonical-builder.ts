import type { Client, CoreStream, CustomFields, Deal, Manager, Product, StatusChange } from 'tracker-sync/connector';
import type { RejectedInput } from 'tracker-sync/connector';
import { normalizedList, normalizeEmail, normalizePhone } from 'tracker-sync/connector';
import { CustomEntry, isVisitEntry } from './custom-fields';
import {
  DateSpec, FieldError, toCalendarDate, toId, toInstant, toNumber, toStatus, toText,
} from './field-values';

/** Turns the mapped values of one source record into a canonical record, or a rejected input. */

export interface BuildOptions {
  statusMap?: Record<string, string>;
  visitField: string;
  /** date format/zone per canonical field (mapping overrides merged over the stream's defaults) */
  dateSpec(field: string): DateSpec;
}

/**
 * The record, with the optional fields it was sent without because they could not be read (`skipped`: each
 * names the field and why; the record is kept), or the record's rejection (a required field, or one whose loss
 * would change what the record says: a deal's price, dates, status).
 */
export type BuildResult =
  | { record: Deal | Client | Manager; skipped?: LeftOutField[]; rejected?: undefined }
  | { rejected: RejectedInput; record?: undefined; skipped?: undefined };

export interface LeftOutField {
  field: string;
  reason: string;
}

export function buildRecord(
  stream: CoreStream,
  values: Record<string, unknown>,
  custom: CustomEntry[],
  options: BuildOptions,
): BuildResult {
  const id = toId(values.id, 'id');
  if (id === null) return { rejected: { id: '', field: 'id', reason: 'the record has no id' } };
  try {
    if (stream === 'managers') return withSkipped(buildManager(id, values), []);
    const skipped: LeftOutField[] = [];
    if (stream === 'clients') return withSkipped(buildClient(id, values, custom, options, skipped), skipped);
    return { record: buildDeal(id, values, custom, options) };
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return { rejected: { id, field: error.field, reason: error.message } };
  }
}

function buildManager(id: string, v: Record<string, unknown>): Manager {
  const phone = toText(v.phone, 'phone');
  const email = toText(v.email, 'email');
  const manager: Manager = {
    id,
    name: '',
    phone: phone === null ? null : normalizePhone(phone),
    email: email === null ? null : normalizeEmail(email),
  };
  // The service needs a name; a CRM user without one is still a manager.
  manager.name = toText(trimmed(v.name), 'name') ?? manager.email ?? manager.phone ?? id;
  return manager;
}

function withSkipped(record: Deal | Client | Manager, skipped: LeftOutField[]): BuildResult {
  return skipped.length ? { record, skipped } : { record };
}

/**
 * A client's company and birth date are optional: one that cannot be read is left out (noted in `skipped`), and
 * the client is still sent, so its deals never name a client the service lacks.
 */
function buildClient(id: string, v: Record<string, unknown>, custom: CustomEntry[], o: BuildOptions, skipped: LeftOutField[]): Client {
  const phones = normalizedList(v.phones ?? v.phone, normalizePhone);
  const emails = normalizedList(v.emails ?? v.email, normalizeEmail);
  return {
    id,
    name: toText(trimmed(v.name), 'name') ?? emails[0] ?? phones[0] ?? id,
    phones,
    emails,
    company: optional(skipped, () => toText(v.company, 'company')),
    birth_date: optional(skipped, () => toCalendarDate(v.birth_date, 'birth_date', o.dateSpec('birth_date'))),
    custom_fields: customFields(custom, null),
    updated_at: toInstant(v.updated_at, 'updated_at', o.dateSpec('updated_at')),
  };
}

/** An optional field's value, or null with the reason noted when it cannot be read. */
function optional<T>(skipped: LeftOutField[], read: () => T | null): T | null {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    skipped.push({ field: error.field, reason: error.message });
    return null;
  }
}

function buildDeal(id: string, v: Record<string, unknown>, custom: CustomEntry[], o: BuildOptions): Deal {
  const createdAt = toInstant(v.created_at, 'created_at', o.dateSpec('created_at'));
  if (!createdAt) throw new FieldError('created_at', 'the deal has no creation date');
  const visitEntry = custom.find((entry) => isVisitEntry(entry, o.visitField));
  const deal: Deal = {
    id,
    title: toText(v.title, 'title'),
    created_at: createdAt,
    updated_at: toInstant(v.updated_at, 'updated_at', o.dateSpec('updated_at')),
    status: toStatus(v.status, 'status', o.statusMap),
    visit_id: toId(v.visit_id, 'visit_id') ?? visitEntry?.value ?? null,
    // a field the mapping has is null when the CRM's value is empty (the service's is cleared); one it lacks is
    // undefined, left out, so the service keeps its value
    price: 'price' in v ? toNumber(v.price, 'price') : undefined,
    cost: 'cost' in v ? toNumber(v.cost, 'cost') : undefined,
    client_id: toId(v.client_id, 'client_id'),
    manager_id: toId(v.manager_id, 'manager_id'),
    custom_fields: customFields(custom, visitEntry ?? null),
  };
  // an empty list is no list: the payload has no products / history either way, and fingerprints stay alike
  if (v.products !== undefined && v.products !== null && !isEmptyList(v.products)) deal.products = toProducts(v.products);
  if (v.history !== undefined && v.history !== null && !isEmptyList(v.history)) deal.history = toHistory(v.history, o);
  // when the deal reached its final status; the preset's mapping gives it only for a closed deal (absent: none)
  const closedAt = toInstant(v.closed_at, 'closed_at', o.dateSpec('closed_at'));
  if (closedAt) deal.closed_at = closedAt;
  return deal;
}

/** Keyed by the field's name; the visit field is not repeated here (it becomes visit_id). */
function customFields(custom: CustomEntry[], visitEntry: CustomEntry | null): CustomFields {
  const fields: CustomFields = {};
  for (const entry of custom) if (entry !== visitEntry) fields[entry.name || entry.id] = entry.value;
  return fields;
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function trimmed(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : value;
}

function list(value: unknown, field: string): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : [value];
  if (!items.every((item) => typeof item === 'object' && item !== null)) throw new FieldError(field, 'must be a list of objects');
  return items as Record<string, unknown>[];
}

function toProducts(value: unknown): Product[] {
  return list(value, 'products').map((p, i) => ({
    id: toId(p.id, `products[${i}].id`) ?? String(i + 1),
    name: toText(p.name, `products[${i}].name`) ?? '',
    quantity: toNumber(p.quantity, `products[${i}].quantity`) ?? 1,
    price: toNumber(p.price, `products[${i}].price`),
    cost: toNumber(p.cost, `products[${i}].cost`),
    brand: toText(p.brand, `products[${i}].brand`),
    variant: toText(p.variant, `products[${i}].variant`),
    categories: Array.isArray(p.categories) ? p.categories.map(String) : [],
  }));
}

function toHistory(value: unknown, o: BuildOptions): StatusChange[] {
  return list(value, 'history').map((h, i) => {
    const date = toInstant(h.date, `history[${i}].date`, o.dateSpec('history'));
    if (!date) throw new FieldError(`history[${i}].date`, 'the status change has no date');
    const status = toStatus(h.status, `history[${i}].status`, o.statusMap);
    if (status === null) throw new FieldError(`history[${i}].status`, 'the status change has no status');
    return { date, status, price: toNumber(h.price, `history[${i}].price`), cost: toNumber(h.cost, `history[${i}].cost`) };
  });
}
