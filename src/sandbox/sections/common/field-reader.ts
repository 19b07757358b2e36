import { badRequest } from '../../errors/sandbox-error';
import { SERVICE_LOCAL_OFFSET, parsePlainDate, parseTimestamp } from './service-time';

/**
 * Reads the fields of a request body with the service's validations: a missing required field
 * or a value of the wrong type is a 400 whose description names the field by its full path
 * (`options.redirect.type`, `[2].name`). Absent and `undefined` are the same; `null` counts as
 * absent only where the specification writes "null or T".
 */
export class FieldReader {
  private constructor(
    private readonly source: Record<string, unknown>,
    private readonly prefix: string,
  ) {}

  /** The body must be a JSON object; a missing body reads as an empty object. */
  static ofBody(body: unknown, path = 'body'): FieldReader {
    if (body === undefined || body === null || body === '') return new FieldReader({}, '');
    if (!isPlainObject(body)) throw badRequest(path, `${path}: must be a JSON object, got ${describe(body)}`);
    return new FieldReader(body, path === 'body' ? '' : path);
  }

  /** The body of a list operation: as `ofBody`, and a top-level field sent as `null` counts as absent. */
  static ofListBody(body: unknown): FieldReader {
    const reader = FieldReader.ofBody(body);
    return new FieldReader(Object.fromEntries(Object.entries(reader.source).filter(([, value]) => value !== null)), '');
  }

  /** The body must be a JSON array of objects; each item gets a reader named `[i]`. */
  static ofArrayBody(body: unknown, path = 'body'): FieldReader[] {
    if (!Array.isArray(body)) throw badRequest(path, `${path}: must be a JSON array, got ${describe(body)}`);
    return body.map((item, index) => FieldReader.ofBody(item, `${path === 'body' ? '' : path}[${index}]`));
  }

  /** Where this reader sits in the body (`options.redirect`, `[2]`; empty at the top). */
  get location(): string {
    return this.prefix;
  }

  path(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name;
  }

  has(name: string): boolean {
    return this.source[name] !== undefined;
  }

  raw(name: string): unknown {
    return this.source[name];
  }

  requiredString(name: string): string {
    const value = this.required(name);
    if (typeof value !== 'string') throw this.wrongType(name, 'a string', value);
    if (value.trim() === '') throw badRequest(this.path(name), `${this.path(name)}: must not be empty`);
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.has(name) ? this.requiredString(name) : undefined;
  }

  /** "null or string": null is kept, an empty string is allowed. */
  nullableString(name: string): string | null | undefined {
    const value = this.source[name];
    if (value === undefined || value === null) return value as undefined | null;
    if (typeof value !== 'string') throw this.wrongType(name, 'a string or null', value);
    return value;
  }

  requiredInteger(name: string): number {
    const value = this.required(name);
    if (typeof value !== 'number' || !Number.isInteger(value)) throw this.wrongType(name, 'an integer', value);
    return value;
  }

  optionalInteger(name: string): number | undefined {
    return this.has(name) ? this.requiredInteger(name) : undefined;
  }

  /** Integer flags such as `is_enabled` take 0 or 1 only. */
  requiredFlag(name: string): 0 | 1 {
    const value = this.requiredInteger(name);
    if (value !== 0 && value !== 1) throw badRequest(this.path(name), `${this.path(name)}: must be 0 or 1, got ${value}`);
    return value;
  }

  optionalFlag(name: string): 0 | 1 | undefined {
    return this.has(name) ? this.requiredFlag(name) : undefined;
  }

  requiredBoolean(name: string): boolean {
    const value = this.required(name);
    if (typeof value !== 'boolean') throw this.wrongType(name, 'a boolean', value);
    return value;
  }

  optionalBoolean(name: string): boolean | undefined {
    return this.has(name) ? this.requiredBoolean(name) : undefined;
  }

  requiredEnum<T extends string>(name: string, allowed: readonly T[]): T {
    const value = this.requiredString(name);
    if (!allowed.includes(value as T)) {
      throw badRequest(this.path(name), `${this.path(name)}: must be one of ${allowed.join(', ')}, got "${value}"`);
    }
    return value as T;
  }

  optionalEnum<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    return this.has(name) ? this.requiredEnum(name, allowed) : undefined;
  }

  /**
   * Ids the specification types both ways (a string in a list, an integer in update/delete):
   * an integer or a non-empty string is accepted and returned as a string.
   */
  requiredId(name: string): string {
    const value = this.required(name);
    if (typeof value === 'number' && Number.isInteger(value)) return String(value);
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    throw this.wrongType(name, 'an integer or string id', value);
  }

  /** A real calendar day `YYYY-MM-DD`. */
  requiredPlainDate(name: string): string {
    const value = this.requiredString(name);
    if (!parsePlainDate(value)) {
      throw badRequest(this.path(name), `${this.path(name)}: must be a date YYYY-MM-DD, got "${value}"`);
    }
    return value;
  }

  /** A date-time in one of the forms of `parseTimestamp`; without offset read at `defaultOffset`. */
  requiredTimestamp(name: string, defaultOffset = SERVICE_LOCAL_OFFSET): Date {
    const value = this.requiredString(name);
    const date = parseTimestamp(value, defaultOffset);
    if (!date) {
      throw badRequest(this.path(name), `${this.path(name)}: must be a date-time such as 2024-05-01T10:00:00.000Z, got "${value}"`);
    }
    return date;
  }

  optionalTimestamp(name: string, defaultOffset = SERVICE_LOCAL_OFFSET): Date | undefined {
    return this.has(name) ? this.requiredTimestamp(name, defaultOffset) : undefined;
  }

  requiredArray(name: string): unknown[] {
    const value = this.required(name);
    if (!Array.isArray(value)) throw this.wrongType(name, 'an array', value);
    return value;
  }

  optionalArray(name: string): unknown[] | undefined {
    return this.has(name) ? this.requiredArray(name) : undefined;
  }

  requiredStringArray(name: string): string[] {
    const items = this.requiredArray(name);
    items.forEach((item, index) => {
      if (typeof item !== 'string') {
        throw badRequest(`${this.path(name)}[${index}]`, `${this.path(name)}[${index}]: must be a string, got ${describe(item)}`);
      }
    });
    return items as string[];
  }

  optionalStringArray(name: string): string[] | undefined {
    return this.has(name) ? this.requiredStringArray(name) : undefined;
  }

  /** A nested object, read with its own reader (paths continue: `options.redirect`). */
  requiredObject(name: string): FieldReader {
    const value = this.required(name);
    if (!isPlainObject(value)) throw this.wrongType(name, 'an object', value);
    return new FieldReader(value, this.path(name));
  }

  optionalObject(name: string): FieldReader | undefined {
    return this.has(name) && this.source[name] !== null ? this.requiredObject(name) : undefined;
  }

  /** Each item of an array of objects, read with a reader named `name[i]`. */
  objectItems(name: string): FieldReader[] {
    return this.requiredArray(name).map((item, index) => {
      const path = `${this.path(name)}[${index}]`;
      if (!isPlainObject(item)) throw badRequest(path, `${path}: must be an object, got ${describe(item)}`);
      return new FieldReader(item, path);
    });
  }

  /** The raw object (for `data` payloads stored as given). */
  optionalRawObject(name: string): Record<string, unknown> | null | undefined {
    const value = this.source[name];
    if (value === undefined || value === null) return value as undefined | null;
    if (!isPlainObject(value)) throw this.wrongType(name, 'an object or null', value);
    return value;
  }

  private required(name: string): unknown {
    const value = this.source[name];
    if (value === undefined || value === null) {
      throw badRequest(this.path(name), `${this.path(name)}: required field is missing`);
    }
    return value;
  }

  private wrongType(name: string, expected: string, value: unknown) {
    return badRequest(this.path(name), `${this.path(name)}: must be ${expected}, got ${describe(value)}`);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, safe rendering of a bad value for an error description. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}
