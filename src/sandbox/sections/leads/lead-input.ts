import { badRequest } from '../../errors/sandbox-error';
import { FieldReader } from '../common/field-reader';
import { formatUtcTimestamp } from '../common/service-time';
import { LEAD_STATUSES, LeadDoc, LeadStatusId } from './lead.types';

const STATUS_IDS = LEAD_STATUSES.map((status) => status.id) as readonly string[];
const OPTIONAL_TEXT = ['email', 'phone', 'source', 'text'] as const;

/** `status` is 0, 1 or 2, given as a string or an integer. */
export function readLeadStatus(reader: FieldReader): LeadStatusId {
  const value = reader.raw('status');
  if (value === undefined || value === null) throw badRequest('status', 'status: required field is missing');
  const text = typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  if (!STATUS_IDS.includes(text)) throw badRequest('status', `status: must be one of 0, 1, 2, got ${JSON.stringify(value)}`);
  return text as LeadStatusId;
}

/** Dates without an offset are read as the service reads them (UTC+03:00). */
function readDate(reader: FieldReader, name: 'creation_date' | 'paid_date'): string {
  return formatUtcTimestamp(reader.requiredTimestamp(name));
}

/** Create: `creation_date`, `name`, `status`, `title` required; the rest optional. */
export function readNewLead(reader: FieldReader): LeadDoc {
  const lead: LeadDoc = {
    creation_date: readDate(reader, 'creation_date'),
    name: reader.requiredString('name'),
    status: readLeadStatus(reader),
    title: reader.requiredString('title'),
    paid_date: reader.has('paid_date') && reader.raw('paid_date') !== null ? readDate(reader, 'paid_date') : '',
    price: reader.optionalInteger('price') ?? 0,
    email: '', phone: '', source: '', text: '',
  };
  for (const name of OPTIONAL_TEXT) lead[name] = reader.nullableString(name) ?? '';
  return lead;
}

/** Update: only the fields present in the request, each checked as on create. */
export function readLeadPatch(reader: FieldReader): Partial<LeadDoc> {
  const patch: Partial<LeadDoc> = {};
  if (reader.has('creation_date')) patch.creation_date = readDate(reader, 'creation_date');
  if (reader.has('paid_date')) patch.paid_date = reader.raw('paid_date') === null ? '' : readDate(reader, 'paid_date');
  if (reader.has('name')) patch.name = reader.requiredString('name');
  if (reader.has('title')) patch.title = reader.requiredString('title');
  if (reader.has('status')) patch.status = readLeadStatus(reader);
  if (reader.has('price')) patch.price = reader.requiredInteger('price');
  for (const name of OPTIONAL_TEXT) {
    if (reader.has(name)) patch[name] = reader.nullableString(name) ?? '';
  }
  return patch;
}
