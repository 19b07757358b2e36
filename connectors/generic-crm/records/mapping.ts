import jsonata from 'jsonata';
import { MappingValue } from '../definition/stream-definition';
import { FieldError } from './field-values';
import { compilePath, readPath } from './paths';

/**
 * A mapping entry, compiled once per run:
 *  - `"a.b.0.c"`              plain dotted path: read with a loop, no expression evaluator;
 *  - `"=JSONata expression"`  or `{ expr: "..." }`: compiled once with the jsonata package;
 *  - `{ path | expr, format, timezone }` the same plus how a date is written;  `{ const: value }`.
 */
export interface CompiledField {
  /** canonical field name */
  name: string;
  /** the mapping as written, for messages */
  source: string;
  format?: string;
  timezone?: string;
  /** sync for plain paths and constants; a Promise only for JSONata */
  read(record: unknown): unknown;
}

export function compileMapping(mapping: Record<string, MappingValue>, where: string): CompiledField[] {
  const fields: CompiledField[] = [];
  for (const [name, value] of Object.entries(mapping)) {
    if (value === null || value === undefined) continue;
    fields.push(compileField(name, value, `${where}.mapping.${name}`));
  }
  return fields;
}

function compileField(name: string, value: Exclude<MappingValue, null>, where: string): CompiledField {
  const spec = typeof value === 'string' ? { path: value } : value;
  const base = { name, format: spec.format, timezone: spec.timezone };
  if ('const' in spec && spec.const !== undefined) {
    const constant = spec.const;
    return { ...base, source: JSON.stringify(constant), read: () => constant };
  }
  const text = spec.expr !== undefined ? `=${spec.expr}` : (spec.path ?? '');
  if (text.startsWith('=')) return { ...base, source: text, read: compileExpression(text.slice(1), where) };
  const path = compilePath(text);
  return { ...base, source: text, read: (record) => readPath(record, path) };
}

export function compileExpression(expression: string, where: string): (record: unknown) => Promise<unknown> {
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(expression);
  } catch (error) {
    throw new Error(`${where}: invalid JSONata expression ${JSON.stringify(expression)}: ${(error as Error).message}`);
  }
  return async (record) => plain(await compiled.evaluate(record));
}

/** JSONata returns "sequences" (arrays with extra flags); hand back ordinary values. */
function plain(value: unknown): unknown {
  return Array.isArray(value) ? Array.from(value) : value;
}

/** Reads every field of a record; awaits only the JSONata ones. A failing expression names its field. */
export async function readFields(fields: CompiledField[], record: unknown): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    try {
      const value = field.read(record);
      values[field.name] = value instanceof Promise ? await value : value;
    } catch (error) {
      throw new FieldError(field.name, `${field.source} failed: ${(error as Error).message}`);
    }
  }
  return values;
}
