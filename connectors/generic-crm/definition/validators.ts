import { registerDecorator, ValidationOptions } from 'class-validator';

/** `Record<string, string>`, e.g. status_map. */
export function IsStringRecord(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isStringRecord',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: 'must be an object whose values are strings', ...options },
      validator: {
        validate: (value: unknown) =>
          isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number'),
      },
    });
}

/** A mapping: canonical field -> dotted path, `=JSONata`, or `{ path | expr, format?, timezone? }`. */
export function IsMapping(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isMapping',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: 'must map field names to a path string, "=expression", or { path | expr, format?, timezone? }',
        ...options,
      },
      validator: { validate: (value: unknown) => isPlainObject(value) && Object.values(value).every(isMappingValue) },
    });
}

function isMappingValue(value: unknown): boolean {
  if (typeof value === 'string' || value === null) return true;
  if (!isPlainObject(value)) return false;
  const allowed = new Set(['path', 'expr', 'format', 'timezone', 'const']);
  return Object.keys(value).every((k) => allowed.has(k)) && ('path' in value || 'expr' in value || 'const' in value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
