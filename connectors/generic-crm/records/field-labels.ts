import { LabelsDefinition } from '../definition/stream-definition';
import { Requester } from '../http/requester';
import { listItems } from '../pagination/list-pages';
import { getPath } from './paths';

/**
 * A CRM's field list as key -> human name (Pipedrive dealFields, Bitrix24 crm.item.fields, amoCRM
 * leads/custom_fields). The records are a list, or an object keyed by the field (its key is then `_key`).
 */
export async function fetchFieldLabels(definition: LabelsDefinition, requester: Requester, what = 'field list'): Promise<Map<string, string>> {
  const request = definition.request!;
  const spec = { method: request.method ?? 'GET', path: request.path!, query: request.query, body: request.body, headers: request.headers };
  const items = await listItems(requester, spec, definition.paginator, what, (body) => {
    const found = getPath(body, definition.records ?? '');
    return Array.isArray(found)
      ? found
      : Object.entries((found as Record<string, unknown>) ?? {}).map(([key, value]) => ({ _key: key, ...(value as object) }));
  });
  const labels = new Map<string, string>();
  for (const item of items) {
    const key = getPath(item, definition.key ?? 'key');
    const name = getPath(item, definition.name ?? 'name');
    if (key === undefined || key === null) continue;
    labels.set(String(key), name === undefined || name === null || name === '' ? String(key) : String(name));
  }
  return labels;
}
