import type { CoreStream } from '../../src/connectors/canonical';
import { StreamDefinition } from './definition/stream-definition';
import { Requester } from './http/requester';
import { Paginator } from './pagination/paginator';
import { createPaginator } from './pagination/strategies';
import { BuildOptions } from './records/canonical-builder';
import { DateSpec } from './records/field-values';
import { CompiledField, compileExpression, compileMapping } from './records/mapping';
import { CustomFieldReader } from './records/custom-fields';
import { getPath } from './records/paths';
import { ResolvedSource } from './source-config';

/** Everything one stream read needs, compiled once per run (mapping expressions, paginator, formats). */
export interface StreamPlan {
  stream: CoreStream;
  definition: StreamDefinition;
  fields: CompiledField[];
  filter: ((record: unknown) => Promise<unknown>) | null;
  paginator: Paginator;
  build: BuildOptions;
  /** how `{{cursor}}` is written */
  cursorFormat: DateSpec;
  incremental: boolean;
}

export function planStream(stream: CoreStream, definition: StreamDefinition, source: ResolvedSource): StreamPlan {
  const where = `streams.${stream}`;
  const incremental = definition.incremental;
  const defaults: DateSpec = {
    format: definition.dates?.format ?? incremental?.format ?? 'iso',
    timezone: definition.dates?.timezone ?? incremental?.timezone ?? source.timezone,
  };
  const mapping = { ...(definition.mapping ?? {}) };
  if (incremental?.field && mapping.updated_at === undefined) {
    mapping.updated_at = { path: incremental.field, format: incremental.format, timezone: incremental.timezone };
  }
  const fields = compileMapping(mapping, where);
  const byName = new Map(fields.map((field) => [field.name, field]));
  return {
    stream,
    definition,
    fields,
    filter: definition.filter ? compileExpression(definition.filter.replace(/^=/, ''), `${where}.filter`) : null,
    paginator: createPaginator(definition.paginator),
    incremental: !!incremental,
    cursorFormat: {
      format: incremental?.cursor_format ?? incremental?.format ?? 'iso',
      timezone: incremental?.cursor_timezone ?? incremental?.timezone ?? source.timezone,
    },
    build: {
      statusMap: source.status_map,
      visitField: source.visit_field,
      dateSpec: (name) => {
        const field = byName.get(name);
        return { format: field?.format ?? defaults.format, timezone: field?.timezone ?? defaults.timezone };
      },
    },
  };
}

/** Human names of custom field keys, fetched once per run when the stream says where. */
export async function customFieldReader(plan: StreamPlan, requester: Requester): Promise<CustomFieldReader | null> {
  const definition = plan.definition.custom_fields;
  if (!definition) return null;
  const labels = new Map<string, string>();
  if (definition.labels?.request?.path) {
    const { request } = definition.labels;
    const answer = await requester.send({
      method: request.method ?? 'GET',
      path: request.path!,
      query: request.query,
      body: request.body,
      headers: request.headers,
    });
    const found = getPath(answer.body, definition.labels.records ?? '');
    const items = Array.isArray(found)
      ? found
      : Object.entries((found as Record<string, unknown>) ?? {}).map(([key, value]) => ({ _key: key, ...(value as object) }));
    for (const item of items) {
      const key = getPath(item, definition.labels.key ?? 'key');
      const name = getPath(item, definition.labels.name ?? 'name');
      if (key !== undefined && name !== undefined && name !== null && name !== '') labels.set(String(key), String(name));
    }
  }
  return new CustomFieldReader(definition, labels);
}
