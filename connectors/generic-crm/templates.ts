import jsonata from 'jsonata';
import { getPath } from './records/paths';
import { isPlainObject } from './definition/validators';

/**
 * Request templates. A string value is either
 *  - `=JSONata` evaluated with the variables bound as `$name` (e.g. `=$ids.{"id": $}`), or
 *  - text with `{{name}}` placeholders (`{{cursor}}`, `{{until}}`, `{{visit_field}}`, `{{page_size}}`).
 * A value that is exactly one placeholder keeps the variable's type (arrays, numbers); when that
 * variable is undefined the key is left out of the query or body.
 */
export type TemplateVariables = Record<string, unknown>;

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;
const EXACT = /^\{\{\s*([\w.]+)\s*\}\}$/;
const expressions = new Map<string, jsonata.Expression>();

export async function renderTemplate(template: unknown, variables: TemplateVariables): Promise<unknown> {
  if (typeof template === 'string') return renderString(template, variables);
  if (Array.isArray(template)) {
    const items = await Promise.all(template.map((item) => renderTemplate(item, variables)));
    return items.filter((item) => item !== undefined);
  }
  if (!isPlainObject(template)) return template;
  const rendered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template)) {
    const result = await renderTemplate(value, variables);
    if (result !== undefined) rendered[key] = result;
  }
  return rendered;
}

async function renderString(template: string, variables: TemplateVariables): Promise<unknown> {
  if (template.startsWith('=')) return compiled(template.slice(1)).evaluate({}, variables);
  const exact = EXACT.exec(template);
  if (exact) return lookup(variables, exact[1]);
  return template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = lookup(variables, name);
    return value === undefined || value === null ? '' : String(value);
  });
}

function lookup(variables: TemplateVariables, name: string): unknown {
  return name in variables ? variables[name] : getPath(variables, name);
}

function compiled(expression: string): jsonata.Expression {
  let found = expressions.get(expression);
  if (!found) {
    found = jsonata(expression);
    expressions.set(expression, found);
  }
  return found;
}
