import { EnrichDefinition } from '../definition/stream-definition';
import { Requester } from '../http/requester';
import { renderTemplate, TemplateVariables } from '../templates';
import { getPath } from './paths';

/**
 * "Fetch related by ids": for one page of records, asks the source for related objects in batches
 * (HubSpot deal→contact associations) and attaches them as `_related.<name>` (a list) for the mapping.
 */
export async function enrichPage(
  records: Record<string, unknown>[],
  definition: EnrichDefinition,
  requester: Requester,
  variables: TemplateVariables,
): Promise<void> {
  const keyPath = definition.key ?? 'id';
  const ids = [...new Set(records.map((r) => getPath(r, keyPath)).filter((id) => id !== undefined && id !== null).map(String))];
  const related = new Map<string, unknown[]>();
  const batchSize = definition.batch_size ?? 100;
  for (let start = 0; start < ids.length; start += batchSize) {
    const batch = ids.slice(start, start + batchSize);
    const batchVariables = { ...variables, ids: batch };
    const request = definition.request ?? {};
    const answer = await requester.send({
      method: request.method ?? 'GET',
      path: String(await renderTemplate(request.path ?? '', batchVariables)),
      query: (await renderTemplate(request.query ?? {}, batchVariables)) as Record<string, unknown>,
      body: request.body === undefined ? undefined : await renderTemplate(request.body, batchVariables),
      headers: request.headers,
    });
    const items = getPath(answer.body, definition.records ?? '');
    for (const item of Array.isArray(items) ? items : []) {
      const owner = String(getPath(item, definition.match ?? 'id'));
      related.set(owner, [...(related.get(owner) ?? []), item]);
    }
  }
  for (const record of records) {
    const id = String(getPath(record, keyPath));
    const previous = (record._related as Record<string, unknown> | undefined) ?? {};
    record._related = { ...previous, [definition.name]: related.get(id) ?? [] };
  }
}
