import { badRequest } from '../errors/sandbox-error';

/**
 * Small checks for request bodies; each error names the field (with its path, e.g. `[3].products[0].id`)
 * and the value it got, as the service's 400 answers do.
 */
export type Json = Record<string, unknown>;

export function requireObject(value: unknown, field: string): Json {
  if (value === undefined || value === null) throw badRequest(field, `${field}: required object is missing`);
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(field, `${field}: must be an object`);
  return value as Json;
}

/** The body itself; an absent body counts as `{}` for operations whose fields are all optional. */
export function bodyObject(value: unknown): Json {
  if (value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)) return {};
  return requireObject(value, 'body');
}

/**
 * The body of a list operation: a field sent as `null` counts as absent (`"is_deleted": null`, `"filters": null`),
 * as the service treats it (README: behaviour where the specification is silent).
 */
export function listBody(value: unknown): Json {
  return withoutNulls(bodyObject(value));
}

export function withoutNulls(body: Json): Json {
  return Object.fromEntries(Object.entries(body).filter(([, field]) => field !== null));
}

export function requireArray(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) throw badRequest(field, `${field}: required array is missing`);
  if (!Array.isArray(value)) throw badRequest(field, `${field}: must be an array`);
  return value;
}

export function requireString(body: Json, field: string, path = field): string {
  const value = body[field];
  if (value === undefined || value === null || value === '') throw badRequest(path, `${path}: required field is missing`);
  if (typeof value !== 'string') throw badRequest(path, `${path}: must be a string, got ${typeof value}`);
  return value;
}

/** A string, or a number written as one (ids often arrive as numbers). */
export function requireId(body: Json, field: string, path = field): string {
  const value = body[field];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return requireString(body, field, path);
}

export function optionalString(body: Json, field: string, path = field): string | null | undefined {
  const value = body[field];
  if (value === undefined || value === null) return value as null | undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw badRequest(path, `${path}: must be a string or null, got ${typeof value}`);
  return value;
}

export function optionalInteger(body: Json, field: string, path = field, min = 0): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) throw badRequest(path, `${path}: must be an integer`);
  if (number < min) throw badRequest(path, `${path}: must be at least ${min}`);
  return number;
}

export function optionalStringArray(body: Json, field: string, path = field): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw badRequest(path, `${path}: must be an array of strings`);
  }
  return value as string[];
}
