import type { ReadContext, DiscoveredField } from 'tracker-sync/connector';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { sourceSession } from './source-session';
import { enabledStreams, pagesStreamOf, streamDefinition } from './source-config';

/** The source's fields (dotted paths with an example value) from the first record of each stream, to help write a mapping. */
export async function discoverFields(
  settings: GenericCrmSettings,
  context: Omit<ReadContext<GenericCrmSettings>, 'state'>,
): Promise<DiscoveredField[]> {
  const session = sourceSession(context);
  const fields: DiscoveredField[] = [];
  for (const stream of enabledStreams(session.source)) {
    const definition = streamDefinition(session.source, stream);
    const pagesOf = pagesStreamOf(session.source, stream);
    const fetched = streamDefinition(session.source, pagesOf);
    const request = fetched.request!;
    const answer = await session.requester(pagesOf).send({
      method: request.method ?? 'GET',
      path: request.path!.replace(/\{\{[^}]*\}\}/g, ''),
      body: request.method === 'POST' ? {} : undefined,
    });
    const records = getPath(answer.body, fetched.records ?? '');
    let first = Array.isArray(records) ? records[0] : undefined;
    // a `from` stream: the first record embedded in the first record of the other stream
    if (pagesOf !== stream) first = [getPath(first, definition.records ?? '')].flat()[0];
    for (const [name, example] of flatten(first)) {
      fields.push({ stream, name, type: example === null ? 'null' : typeof example, example });
    }
  }
  return fields;
}

function flatten(value: unknown, prefix = '', depth = 0): [string, unknown][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 2) {
    return prefix ? [[prefix, value]] : [];
  }
  return Object.entries(value).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key, depth + 1));
}
