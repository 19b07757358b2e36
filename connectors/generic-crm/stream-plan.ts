import type { CoreStream } from 'tracker-sync/connector';
import { deepMerge } from './definition/merge';
import { PaginatorDefinition, StreamDefinition } from './definition/stream-definition';
import { Requester } from './http/requester';
import { Paginator } from './pagination/paginator';
import { createPaginator } from './pagination/strategies';
import { BuildOptions } from './records/canonical-builder';
import { DateSpec } from './records/field-values';
import { CompiledField, compileExpression, compileMapping } from './records/mapping';
import { CustomFieldReader } from './records/custom-fields';
import { fetchFieldLabels } from './records/field-labels';
import { ResolvedSource } from './source-config';

/** Everything one stream read needs, compiled once per run (mapping expressions, paginator, formats). */
export interface StreamPlan {
  stream: CoreStream;
  definition: StreamDefinition;
  fields: CompiledField[];
  filter: ((record: unknown) => Promise<unknown>) | null;
  paginator: Paginator;
  /** a read without a cursor: its request (merged over the stream's) and paginator, when the stream has its own */
  firstRead: { request: StreamDefinition['request']; paginator: Paginator; definition: PaginatorDefinition | undefined } | null;
  build: BuildOptions;
  /** how `{{cursor}}` is written */
  cursorFormat: DateSpec;
  incremental: boolean;
}

export function planStream(stream: CoreStream, given: StreamDefinition, source: ResolvedSource): StreamPlan {
  const definition = stream === 'deals' ? withoutWrittenFields(given, source) : given;
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
    firstRead: definition.first_read
      ? {
        request: deepMerge(definition.request ?? {}, definition.first_read.request ?? {}),
        paginator: createPaginator(definition.first_read.paginator ?? definition.paginator),
        definition: definition.first_read.paginator ?? definition.paginator,
      }
      : null,
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
  const labels = definition.labels?.request?.path ? await fetchFieldLabels(definition.labels, requester, `streams.${plan.stream}.custom_fields.labels`) : new Map<string, string>();
  return new CustomFieldReader(definition, labels);
}

/**
 * The deal fields write-back fills are not sent to the service as custom fields: the CRM marks a deal
 * updated when we write to it, and an unchanged payload lets the next sync drop it.
 */
function withoutWrittenFields(definition: StreamDefinition, source: ResolvedSource): StreamDefinition {
  const visitField = source.visit_field.toLowerCase(); // never hidden: the write refuses to fill it
  const written = Object.values(source.write_back?.fields ?? {}).map(String).filter((field) => field.toLowerCase() !== visitField);
  if (!definition.custom_fields || written.length === 0) return definition;
  const exclude = [...(definition.custom_fields.exclude ?? []), ...written];
  return { ...definition, custom_fields: { ...definition.custom_fields, exclude } };
}
