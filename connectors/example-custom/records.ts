import type { Client, CoreStream, Deal, Manager } from 'tracker-sync/connector';

/**
 * The file's own record shape -> canonical records. Kept apart from reading so a new CRM only rewrites
 * this file: the raw schema is what the source sends, the canonical one is what the engine takes.
 */

export const TYPE_OF_STREAM: Record<CoreStream, string> = { managers: 'manager', clients: 'client', deals: 'deal' };

export class RecordError extends Error {
  constructor(readonly field: string, reason: string) {
    super(reason);
  }
}

export function toCanonical(stream: CoreStream, raw: Record<string, unknown>): Manager | Client | Deal {
  const id = text(raw.id, 'id');
  if (!id) throw new RecordError('id', 'the record has no id');
  if (stream === 'managers') {
    return { id, name: text(raw.name, 'name') ?? id, phone: text(raw.phone, 'phone'), email: text(raw.email, 'email') };
  }
  if (stream === 'clients') {
    return {
      id,
      name: text(raw.name, 'name') ?? id,
      phones: list(raw.phones ?? raw.phone, 'phones'),
      emails: list(raw.emails ?? raw.email, 'emails'),
      company: text(raw.company, 'company'),
      birth_date: text(raw.birth_date, 'birth_date'),
      updated_at: date(raw.updated_at, 'updated_at'),
    };
  }
  const createdAt = date(raw.created_at, 'created_at');
  if (!createdAt) throw new RecordError('created_at', 'the deal has no created_at');
  return {
    id,
    title: text(raw.title, 'title'),
    created_at: createdAt,
    updated_at: date(raw.updated_at, 'updated_at'),
    status: text(raw.status, 'status'),
    visit_id: text(raw.visit_id, 'visit_id'),
    // a key given empty clears the service's amount (null); a key the record lacks leaves it alone (undefined)
    price: 'price' in raw ? number(raw.price, 'price') : undefined,
    cost: 'cost' in raw ? number(raw.cost, 'cost') : undefined,
    client_id: text(raw.client_id, 'client_id'),
    manager_id: text(raw.manager_id, 'manager_id'),
  };
}

function text(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'object') throw new RecordError(field, `${JSON.stringify(value)} is not a text`);
  return String(value);
}

function list(value: unknown, field: string): string[] {
  if (value === null || value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => text(item, field)).filter((item): item is string => !!item);
}

function number(value: unknown, field: string): number | null {
  if (value === null || value === undefined || value === '') return null;
  const result = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(result)) throw new RecordError(field, `${JSON.stringify(value)} is not a number`);
  return result;
}

/** ISO 8601; without an offset the service's own reading applies (UTC+03:00). */
function date(value: unknown, field: string): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const textValue = String(value);
  const withZone = /([zZ]|[+-]\d\d:?\d\d)$/.test(textValue) ? textValue : `${textValue.replace(' ', 'T')}+03:00`;
  const parsed = new Date(withZone);
  if (Number.isNaN(parsed.getTime())) throw new RecordError(field, `${JSON.stringify(value)} is not a valid date`);
  return parsed;
}
