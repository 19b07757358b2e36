/**
 * The three filter shapes of the specification, and the one habit of the real service
 * the specification does not state: a filter of exactly ONE condition wrapped in
 * `{ and: [...] }` makes it answer HTTP 500. A single condition must therefore travel
 * as a flat array of triples (`[[field, op, value]]`), which every list that accepts
 * the `and` shape also accepts. `toFilters` and `normalizeAndFilters` do that.
 */

export type FilterOperator = '=' | '!=' | '>' | '<' | '>=' | '<=' | 'like' | 'like%' | 'in' | 'contains_all';
export type FilterValue = string | number | Array<string | number>;
export type FilterTriple = [field: string, operator: FilterOperator, value: FilterValue];

/** Shape 1: object with key `and` holding triples (order, client, visit, tracked email lists). */
export interface AndFilters {
  and: FilterTriple[];
}
/** Shape 2: array of triples (client, email campaign, visit lists). */
export type TripleFilters = FilterTriple[];
/** Shape 3: array of objects (lead list, speech call list). */
export interface FilterObject {
  field: string;
  operator: FilterOperator;
  value: FilterValue;
}
export type ObjectFilters = FilterObject[];

/** Filters of the lists that accept both shape 1 and shape 2. */
export type AndOrTripleFilters = AndFilters | TripleFilters;

/** No condition: no filter; one: a flat array (never a lone `and`); several: `{ and }`. */
export function toFilters(triples: FilterTriple[]): AndOrTripleFilters | undefined {
  if (triples.length === 0) return undefined;
  if (triples.length === 1) return [triples[0]];
  return { and: [...triples] };
}

/** Rewrites a caller's `{ and: [one] }` into the flat form the service accepts. */
export function normalizeAndFilters(filters: AndOrTripleFilters | undefined): AndOrTripleFilters | undefined {
  if (!filters || Array.isArray(filters)) return filters;
  if (!Array.isArray(filters.and) || filters.and.length === 0) return undefined;
  return filters.and.length === 1 ? [filters.and[0]] : filters;
}
