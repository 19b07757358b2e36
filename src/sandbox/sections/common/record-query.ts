import { badRequest } from '../../errors/sandbox-error';
import { singleConditionInAnd } from '../../filters/triple-filter';
import { LIST_CAPS, checkLimit } from '../../validation/list-caps';
import { FieldReader, describe, isPlainObject } from './field-reader';
import { parsePlainDate, parseTimestamp, UTC_OFFSET } from './service-time';

/**
 * Filters, sorting and paging of the list operations, on plain records.
 * The three filter shapes of the specification ("Filter shapes") all become `Condition`s.
 */

export const OPERATORS = ['=', '!=', '>', '<', '>=', '<=', 'like', 'like%', 'in', 'contains_all'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  field: string;
  operator: Operator;
  value: unknown;
}

export interface QueryRules {
  /** Fields a filter may name; any other field is a 400. Omitted: every field. */
  fields?: readonly string[];
  operators?: readonly Operator[];
}

/** `filters` as `{and: [[field, operator, value], ...]}` or as `[[field, operator, value], ...]`. */
export function readTripleFilters(reader: FieldReader, name: string, rules: QueryRules = {}): Condition[] {
  if (!reader.has(name)) return [];
  const raw = reader.raw(name);
  const path = reader.path(name);
  const triples = isPlainObject(raw) ? raw.and : raw;
  const triplesPath = isPlainObject(raw) ? `${path}.and` : path;
  if (isPlainObject(raw) && raw.and === undefined) return [];
  if (!Array.isArray(triples)) throw badRequest(triplesPath, `${triplesPath}: must be an array of [field, operator, value]`);
  if (isPlainObject(raw) && triples.length === 1) throw singleConditionInAnd();
  return triples.map((triple, index) => {
    const at = `${triplesPath}[${index}]`;
    if (!Array.isArray(triple) || triple.length !== 3) {
      throw badRequest(at, `${at}: must be a triple [field, operator, value], got ${describe(triple)}`);
    }
    return checkCondition({ field: triple[0], operator: triple[1], value: triple[2] }, at, rules);
  });
}

/** `filters` as `[{field, operator, value}, ...]` (lead list, speech call list). */
export function readObjectFilters(reader: FieldReader, name: string, rules: QueryRules = {}): Condition[] {
  if (!reader.has(name)) return [];
  return reader.objectItems(name).map((item) => {
    const condition = { field: item.raw('field'), operator: item.raw('operator'), value: item.raw('value') };
    return checkCondition(condition, item.location, rules);
  });
}

function checkCondition(raw: { field: unknown; operator: unknown; value: unknown }, at: string, rules: QueryRules): Condition {
  if (typeof raw.field !== 'string' || raw.field === '') throw badRequest(`${at}.field`, `${at}.field: must be a field name`);
  if (rules.fields && !rules.fields.includes(raw.field)) {
    throw badRequest(`${at}.field`, `${at}.field: "${raw.field}" cannot be filtered; filterable: ${rules.fields.join(', ')}`);
  }
  const allowed = rules.operators ?? OPERATORS;
  if (typeof raw.operator !== 'string' || !allowed.includes(raw.operator as Operator)) {
    throw badRequest(`${at}.operator`, `${at}.operator: must be one of ${allowed.join(' ')}, got ${describe(raw.operator)}`);
  }
  const needsArray = raw.operator === 'in' || raw.operator === 'contains_all';
  if (needsArray !== Array.isArray(raw.value)) {
    const expected = needsArray ? 'an array' : 'a string or number';
    throw badRequest(`${at}.value`, `${at}.value: operator ${raw.operator} needs ${expected}, got ${describe(raw.value)}`);
  }
  return { field: raw.field, operator: raw.operator as Operator, value: raw.value };
}

/** Value at a dotted path (`source.system_name`, `matched_dictionaries.operator_dictionary_ids`). */
export function valueAt(record: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), record);
}

export function matchesAll(record: unknown, conditions: readonly Condition[]): boolean {
  return conditions.every((condition) => matches(valueAt(record, condition.field), condition));
}

function matches(actual: unknown, { operator, value }: Condition): boolean {
  switch (operator) {
    case '=': return compare(actual, value) === 0;
    case '!=': return compare(actual, value) !== 0;
    case '>': return compare(actual, value) > 0;
    case '<': return compare(actual, value) < 0;
    case '>=': return compare(actual, value) >= 0;
    case '<=': return compare(actual, value) <= 0;
    case 'like': return likePattern(String(value), false).test(String(actual ?? ''));
    case 'like%': return likePattern(String(value), true).test(String(actual ?? ''));
    case 'in': return (value as unknown[]).some((item) => compare(actual, item) === 0);
    case 'contains_all': return Array.isArray(actual)
      && (value as unknown[]).every((item) => actual.some((element) => compare(element, item) === 0));
  }
}

/**
 * `like` is a case-insensitive substring match unless the value carries `%` wildcards;
 * `like%` matches the beginning of the value.
 */
function likePattern(value: string, prefixOnly: boolean): RegExp {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (prefixOnly) return new RegExp(`^${escaped.replace(/%/g, '.*')}`, 'i');
  return value.includes('%') ? new RegExp(`^${escaped.replace(/%/g, '.*')}$`, 'i') : new RegExp(escaped, 'i');
}

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Numbers compare as numbers (values arrive as strings: "Values are strings unless an array is
 * needed"), dates as instants (a response timestamp against a request bound in another form),
 * everything else as strings. null sorts first.
 */
export function compare(left: unknown, right: unknown): number {
  if (left === right) return 0;
  if (left === null || left === undefined) return right === null || right === undefined ? 0 : -1;
  if (right === null || right === undefined) return 1;
  const [a, b] = [String(left), String(right)];
  if (isNumeric(a) && isNumeric(b)) return Math.sign(Number(a) - Number(b));
  if (DATE_LIKE.test(a) && DATE_LIKE.test(b)) {
    const [x, y] = [parseTimestamp(a, UTC_OFFSET), parseTimestamp(b, UTC_OFFSET)];
    if (x && y) return Math.sign(x.getTime() - y.getTime());
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function isNumeric(text: string): boolean {
  return text.trim() !== '' && Number.isFinite(Number(text));
}

export type SortDirection = 'asc' | 'desc';

/** `sort` as `[field, direction]`; direction `asc` or `desc` (default `asc`). */
export function readSort(reader: FieldReader, name: string, fields?: readonly string[]): { field: string; direction: SortDirection } | null {
  if (!reader.has(name)) return null;
  const raw = reader.raw(name);
  const path = reader.path(name);
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > 2 || typeof raw[0] !== 'string') {
    throw badRequest(path, `${path}: must be [field, direction], got ${describe(raw)}`);
  }
  if (fields && !fields.includes(raw[0])) throw badRequest(path, `${path}: cannot sort by "${raw[0]}"; sortable: ${fields.join(', ')}`);
  const direction = raw[1] ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') throw badRequest(path, `${path}: direction must be asc or desc, got ${describe(direction)}`);
  return { field: raw[0], direction };
}

export function sortRecords<T>(records: T[], field: string, direction: SortDirection): T[] {
  const sign = direction === 'desc' ? -1 : 1;
  return [...records].sort((a, b) => sign * compare(valueAt(a, field), valueAt(b, field)));
}

export interface Paging {
  limit: number | null;
  offset: number;
}

/**
 * `limit` and `offset`: non-negative integers; `limit` at most LIST_CAPS.sections (400 above), and that many when
 * absent, so that no answer grows with the project.
 */
export function readPaging(reader: FieldReader): Paging {
  const limit = reader.optionalInteger('limit') ?? LIST_CAPS.sections;
  const offset = reader.optionalInteger('offset') ?? 0;
  if (limit < 0) throw badRequest(reader.path('limit'), `${reader.path('limit')}: must not be negative`);
  checkLimit(limit, 'sections', reader.path('limit'));
  if (offset < 0) throw badRequest(reader.path('offset'), `${reader.path('offset')}: must not be negative`);
  return { limit, offset };
}

export function pageOf<T>(records: T[], paging: Paging): T[] {
  return records.slice(paging.offset, paging.limit === null ? undefined : paging.offset + paging.limit);
}

/** `period` {from, to} (request bounds `YYYY-MM-DDTHH:MM:SS.sssZ`; other date forms accepted). */
export function readPeriod(reader: FieldReader, name = 'period'): { from: Date; to: Date } {
  const period = reader.requiredObject(name);
  const from = period.requiredTimestamp('from', UTC_OFFSET);
  const toRaw = period.requiredTimestamp('to', UTC_OFFSET);
  // A plain day as the upper bound means the whole day.
  const to = parsePlainDate(String(period.raw('to'))) ? new Date(toRaw.getTime() + 86_399_999) : toRaw;
  if (from > to) throw badRequest(period.path('from'), `${period.path('from')}: must not be after ${period.path('to')}`);
  return { from, to };
}

export function withinPeriod(timestamp: string | null | undefined, period: { from: Date; to: Date }): boolean {
  const date = timestamp ? parseTimestamp(timestamp, UTC_OFFSET) : null;
  return !!date && date >= period.from && date <= period.to;
}
