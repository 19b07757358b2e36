import { SandboxError, badRequest, internalError } from '../errors/sandbox-error';

export const FILTER_OPERATORS = ['=', '!=', '>', '<', '>=', '<=', 'like', 'like%', 'in', 'contains_all'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterClause {
  field: string;
  operator: FilterOperator;
  value: unknown;
}

/**
 * Reads any of the specification's three filter shapes: `{and: [[f, op, v], ...]}`, a flat array of
 * triples, or an array of `{field, operator, value}`. Absent filters are an empty list.
 */
export function parseFilters(raw: unknown, path = 'filters'): FilterClause[] {
  if (raw === undefined || raw === null) return [];
  let items: unknown = raw;
  if (!Array.isArray(raw)) {
    if (typeof raw !== 'object') throw badRequest(path, `${path}: must be an object with "and" or an array of triples`);
    const and = (raw as Record<string, unknown>).and ?? (raw as Record<string, unknown>).AND;
    if (and === undefined) {
      if (Object.keys(raw).length === 0) return [];
      throw badRequest(path, `${path}: object filters must hold an "and" array`);
    }
    if (!Array.isArray(and)) throw badRequest(`${path}.and`, `${path}.and: must be an array of triples`);
    if (and.length === 1) throw singleConditionInAnd();
    items = and;
    path = `${path}.and`;
  }
  return (items as unknown[]).map((item, index) => parseClause(item, `${path}[${index}]`));
}

/**
 * The real service answers HTTP 500 `internal_error` to an `and` holding exactly one condition (the n8n community
 * node's helpers/request.ts `filtersPayload`, checked on a live project, on the order and visit lists alike); the
 * same condition as a flat array of triples, or two conditions in `and`, are answered. The sandbox does the same, so
 * that the client's workaround (src/tracker/filters.ts) is exercised.
 */
export function singleConditionInAnd(): SandboxError {
  return internalError('internal error');
}

function parseClause(item: unknown, path: string): FilterClause {
  let clause: { field: unknown; operator: unknown; value: unknown };
  if (Array.isArray(item)) {
    if (item.length !== 3) throw badRequest(path, `${path}: a triple [field, operator, value] is expected`);
    clause = { field: item[0], operator: item[1], value: item[2] };
  } else if (item && typeof item === 'object') {
    clause = item as typeof clause;
  } else {
    throw badRequest(path, `${path}: a triple [field, operator, value] is expected`);
  }
  if (typeof clause.field !== 'string' || clause.field === '') throw badRequest(`${path}.field`, `${path}.field: must be a field name`);
  if (!FILTER_OPERATORS.includes(clause.operator as FilterOperator)) {
    throw badRequest(`${path}.operator`, `${path}.operator: ${JSON.stringify(clause.operator)} is not one of ${FILTER_OPERATORS.join(' ')}`);
  }
  const operator = clause.operator as FilterOperator;
  const needsArray = operator === 'in' || operator === 'contains_all';
  if (needsArray !== Array.isArray(clause.value)) {
    throw badRequest(`${path}.value`, `${path}.value: operator ${operator} ${needsArray ? 'takes an array' : 'takes a single value'}`);
  }
  return { field: clause.field, operator, value: clause.value };
}

/** Reads a dotted field (`source.system_name`) of a record. */
export function fieldValue(record: unknown, field: string): unknown {
  let current: unknown = record;
  for (const part of field.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Whether a record satisfies every clause (the clauses are joined by AND). */
export function matchesAll(record: unknown, clauses: FilterClause[]): boolean {
  return clauses.every((clause) => matchesClause(fieldValue(record, clause.field), clause));
}

export function matchesClause(actual: unknown, clause: FilterClause): boolean {
  const { operator, value } = clause;
  switch (operator) {
    case '=': return equalsLoose(actual, value);
    case '!=': return !equalsLoose(actual, value);
    case '>': return compare(actual, value) > 0;
    case '<': return compare(actual, value) < 0;
    case '>=': return compare(actual, value) >= 0;
    case '<=': return compare(actual, value) <= 0;
    case 'like': return text(actual).toLowerCase().includes(likeText(value));
    case 'like%': return text(actual).toLowerCase().startsWith(likeText(value));
    case 'in': return (value as unknown[]).some((item) => equalsLoose(actual, item));
    case 'contains_all': return containsAll(actual, value as unknown[]);
  }
}

function containsAll(actual: unknown, wanted: unknown[]): boolean {
  if (Array.isArray(actual)) return wanted.every((item) => actual.some((have) => equalsLoose(have, item)));
  const haystack = text(actual).toLowerCase();
  return wanted.every((item) => haystack.includes(text(item).toLowerCase()));
}

function likeText(value: unknown): string {
  return text(value).replace(/%/g, '').toLowerCase();
}

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

function equalsLoose(actual: unknown, expected: unknown): boolean {
  if (actual === null || actual === undefined) return expected === null || expected === '' || expected === undefined;
  return text(actual) === text(expected);
}

/** Numbers compare as numbers, everything else as text (UTC timestamps sort as text). */
function compare(actual: unknown, expected: unknown): number {
  if (actual === null || actual === undefined) return Number.NaN;
  const a = Number(actual);
  const b = Number(expected);
  if (text(actual) !== '' && text(expected) !== '' && Number.isFinite(a) && Number.isFinite(b)) return a - b;
  const left = text(actual);
  const right = text(expected);
  return left < right ? -1 : left > right ? 1 : 0;
}
