import { isPlainObject } from './validators';

/** Deep merge for layered definitions (_common -> preset -> user): objects merge, arrays and scalars replace. */
export function deepMerge<T>(base: T, override: unknown): T {
  if (override === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(override)) return override as T;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    merged[key] = key in merged ? deepMerge(merged[key], value) : value;
  }
  return merged as T;
}

/**
 * Resolves `extends: name` (or a list of names) against shared `definitions`, so presets reuse blocks
 * (paginators, error rules, stream skeletons) instead of repeating them.
 */
export function resolveExtends(value: unknown, definitions: Record<string, unknown>, where = ''): unknown {
  if (Array.isArray(value)) return value.map((item, i) => resolveExtends(item, definitions, `${where}[${i}]`));
  if (!isPlainObject(value)) return value;
  const { extends: parents, ...own } = value;
  let result: unknown = {};
  for (const parent of parents === undefined ? [] : [parents].flat()) {
    if (typeof parent !== 'string' || !(parent in definitions)) {
      throw new Error(`${where || 'definition'}: extends ${JSON.stringify(parent)} is not a known definition`);
    }
    result = deepMerge(result, resolveExtends(definitions[parent], definitions, `definitions.${parent}`));
  }
  const resolvedOwn: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(own)) {
    resolvedOwn[key] = resolveExtends(child, definitions, where ? `${where}.${key}` : key);
  }
  return deepMerge(result, resolvedOwn);
}
