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

/** `daily_limit.answers`: each names one sign, `header` or `path` with `equals`, or `body_contains` (else it would mark every 429, or none). */
export function NamesOneSignEach(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'namesOneSignEach',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: 'each answer must name one sign: `header` with `equals`, `path` with `equals`, or `body_contains`', ...options },
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || value.every((item) => isPlainObject(item) && namesOneSign(item)),
      },
    });
}

function namesOneSign(answer: Record<string, unknown>): boolean {
  const signs = ['header', 'path', 'body_contains'].filter((key) => answer[key] !== undefined);
  if (signs.length !== 1) return false;
  const needsValue = signs[0] !== 'body_contains';
  return needsValue === (answer.equals !== undefined && answer.equals !== null);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
