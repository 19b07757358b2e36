/**
 * Turns class-validator's error tree into one line per problem, each naming the config path
 * and quoting the value: `connections[0].sync.batch_size: 0 must be an integer between 1 and 10000`.
 */
import { getMetadataStorage, ValidationError } from 'class-validator';
import { isSecretKey, isUrlKey, maskUnparsedUrl, redactSecrets } from './redact';

/** Config paths whose value came from an environment variable, e.g. 'server.port' → 'PORT'. */
export type ValueOrigins = ReadonlyMap<string, string>;

export interface DescribeOptions {
  /** Path of the validated object itself, e.g. 'connections[0].settings' ('' for the whole file). */
  parent?: string;
  origins?: ValueOrigins;
  /** The document as written (after ${NAME} expansion): values are quoted from it, not from converted ones. */
  written?: unknown;
}

export function describeValidationErrors(errors: ValidationError[], options: DescribeOptions = {}): string[] {
  const { parent = '', origins = new Map<string, string>(), written } = options;
  return errors.flatMap((error) => {
    const path = childPath(parent, error);
    const value = writtenValue(written, error);
    const own = error.constraints ? [describeConstraint(error, path, value, origins)] : [];
    return [...own, ...describeValidationErrors(error.children ?? [], { parent: path, origins, written: value })];
  });
}

function childPath(parent: string, error: ValidationError): string {
  if (Array.isArray(error.target)) return `${parent}[${error.property}]`;
  const key = /^[A-Za-z0-9_-]+$/.test(error.property) ? error.property : JSON.stringify(error.property);
  return parent ? `${parent}.${key}` : key;
}

function writtenValue(written: unknown, error: ValidationError): unknown {
  if (typeof written === 'object' && written !== null && Object.hasOwn(written, error.property)) {
    return (written as Record<string, unknown>)[error.property];
  }
  return written === undefined ? error.value : undefined;
}

function describeConstraint(error: ValidationError, path: string, value: unknown, origins: ValueOrigins): string {
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) return `${path}: unknown key${didYouMean(error)}`;
  if (value === undefined) return `${path}: is required`;
  const [name, message] = Object.entries(constraints)[0];
  const wording = name === 'nestedValidation' && message.includes('nested property') ? 'must be a mapping (key: value)' : message;
  const origin = origins.get(path);
  const from = origin ? ` (from ${origin})` : '';
  return `${path}: ${formatValue(error.property, value)} ${withoutSubject(wording, error.property)}${from}`;
}

/** class-validator's stock messages start with the property name ("path must be a string"); the path already says it. */
function withoutSubject(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** A typo such as `bacth_size` gets the key it was probably meant to be: ` (did you mean "batch_size"?)`, or ''. */
export function didYouMean(error: ValidationError): string {
  const known = error.target ? knownKeys(error.target.constructor) : [];
  const close = known.find((key) => editDistance(key, error.property) <= Math.max(1, Math.floor(key.length / 4)));
  return close ? ` (did you mean "${close}"?)` : '';
}

/** With whitelisting, the allowed keys are exactly the properties that carry a validation decorator. */
function knownKeys(target: Function): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  return [...new Set(metadata.map((entry) => entry.propertyName))];
}

export function formatValue(key: string, value: unknown): string {
  if (isSecretKey(key) && value !== undefined && value !== null && value !== '') return '"***"';
  // a wrong URL is shown without what could be a secret in it (its credentials, a token in its path or query)
  if (isUrlKey(key) && typeof value === 'string' && !URL.canParse(value)) return JSON.stringify(maskUnparsedUrl(value));
  const text = JSON.stringify(redactSecrets(value)) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Edits (insert, delete, substitute, swap two neighbours) between two keys: `delas` is one from `deals`. */
function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, beforePrevious[j - 2] + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}
