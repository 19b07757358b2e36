import { readCalendarText } from 'tracker-sync/connector';
import { parseCalendarDate, parseDate } from '../dates';
import { statusMapper } from './status-map';

/** Conversions of one source value to a canonical field type; a bad value throws FieldError. */

export class FieldError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

export interface DateSpec {
  format: string;
  timezone: string;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/** Ids arrive as numbers or strings; a list (JSONata sequence of one) takes its first item. */
export function toId(value: unknown, field: string): string | null {
  const single = Array.isArray(value) ? value[0] : value;
  if (isEmpty(single)) return null;
  if (typeof single === 'object') throw new FieldError(field, `${show(single)} is not an id`);
  return String(single);
}

export function toText(value: unknown, field: string): string | null {
  if (isEmpty(value)) return null;
  if (typeof value === 'object') throw new FieldError(field, `${show(value)} is not a text`);
  return String(value);
}

export function toNumber(value: unknown, field: string): number | null {
  if (isEmpty(value)) return null;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isFinite(number)) throw new FieldError(field, `${show(value)} is not a number`);
  return number;
}

export function toInstant(value: unknown, field: string, spec: DateSpec): Date | null {
  if (isEmpty(value)) return null;
  const date = parseDate(value, spec.format, spec.timezone);
  if (!date) throw new FieldError(field, `${show(value)} is not a valid date (format ${spec.format}, zone ${spec.timezone})`);
  return date;
}

/**
 * A calendar date: in the field's format (unix_ms: an instant's day in the field's zone; HubSpot writes a date
 * property as the epoch milliseconds of its midnight UTC), else as a person writes one ("8 февраля 1992",
 * "08.02.1992": readCalendarText), since such fields are often free text. A unix_ms number under 10^8 (the first
 * day of 1970) is no date anyone meant: a year ("1992") or a typo.
 */
export function toCalendarDate(value: unknown, field: string, spec: DateSpec): string | null {
  if (isEmpty(value)) return null;
  const epochTooSmall = spec.format === 'unix_ms' && Math.abs(Number(typeof value === 'string' ? value.trim() : value)) < 1e8;
  const date = (epochTooSmall ? null : parseCalendarDate(value, spec.format, spec.timezone)) ?? (typeof value === 'string' ? readCalendarText(value) : null);
  if (!date) throw new FieldError(field, `${show(value)} is not a valid date (format ${spec.format}, nor a date as written by hand)`);
  return date;
}

/** CRM stage id -> the service's status id through status_map (exact keys, then `*` patterns); without a map, the CRM's id. */
export function toStatus(value: unknown, field: string, statusMap: Record<string, string> | undefined): string | null {
  const stage = toId(value, field);
  if (stage === null || !statusMap) return stage;
  return statusMapper(statusMap)(stage);
}
