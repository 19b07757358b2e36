import jsonata from 'jsonata';
import type { CatalogField, CatalogPipeline, CatalogStage, CatalogUser, ReadContext, SourceCatalog } from 'tracker-sync/connector';
import { DiscoverDefinition, DiscoverListDefinition, Outcome, OUTCOMES } from '../definition/discover-definition';
import { Requester } from '../http/requester';
import { SourceError } from '../http/source-error';
import { listItems } from '../pagination/list-pages';
import { isRefusal } from '../records/enricher';
import { getPath } from '../records/paths';
import { GenericCrmSettings } from '../settings';
import { sourceSession } from '../source-session';
import { renderTemplate } from '../templates';

/**
 * What the CRM holds that a mapping is written from: pipelines with their stages (and what the CRM says each
 * stage means), deal and contact custom fields, users. Read as the `discover:` block of the preset describes,
 * one request per list.
 */
export async function readCatalog(settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<SourceCatalog> {
  const session = sourceSession(context);
  const definition: DiscoverDefinition | undefined = session.source.discover;
  if (!definition?.pipelines && !definition?.deal_fields) {
    throw new Error(`connection ${context.connectionId}: the source describes no discovery (settings.discover, or a preset that has one)`);
  }
  const requester = session.requester('discover');
  return {
    ...await readStagesOf(definition, requester),
    deal_fields: definition.deal_fields ? await readFields(definition.deal_fields, requester, 'deal_fields') : [],
    contact_fields: definition.contact_fields ? await readFields(definition.contact_fields, requester, 'contact_fields') : [],
    users: definition.users ? await readUsers(definition.users, requester) : [],
  };
}

/** The part of the catalog that describes stages: pipelines with their stages, and deal statuses that are no stage. */
export type StageCatalog = Pick<SourceCatalog, 'pipelines' | 'deal_statuses'>;

/**
 * Only the stages (`statuses: register`): the same `discover:` description, without the fields and users. Throws
 * when the source describes no pipelines.
 */
export async function readStageCatalog(settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<StageCatalog> {
  const session = sourceSession(context);
  const definition: DiscoverDefinition | undefined = session.source.discover;
  if (!definition?.pipelines) {
    throw new Error(`connection ${context.connectionId}: settings.discover.pipelines is not set (preset ${session.source.preset ?? 'none'} gives none): `
      + 'describe how to list the CRM\'s pipelines and their stages (discover.pipelines, discover.stages with outcome), or use status_map instead of statuses: register');
  }
  return readStagesOf(definition, session.requester('stages'));
}

async function readStagesOf(definition: DiscoverDefinition, requester: Requester): Promise<StageCatalog> {
  return {
    pipelines: definition.pipelines ? await readPipelines(definition, requester) : [],
    deal_statuses: (definition.deal_statuses ?? []).map((s) => ({ key: String(s.key), name: s.name, outcome: s.outcome })),
  };
}

async function readPipelines(definition: DiscoverDefinition, requester: Requester): Promise<CatalogPipeline[]> {
  const items = await fetchItems(definition.pipelines!, requester, 'pipelines');
  const pipelines: CatalogPipeline[] = [];
  const raw = new Map<string, unknown>();
  for (const item of items) {
    const id = await text(item, definition.pipelines!.id ?? 'id');
    if (id === '') continue;
    pipelines.push({ id, name: await text(item, definition.pipelines!.name ?? 'name'), stages: [] });
    raw.set(id, item);
  }
  const stages = definition.stages;
  if (!stages) return pipelines;
  if (!stages.request) {
    // stages inside each pipeline record (amoCRM, HubSpot)
    for (const pipeline of pipelines) {
      for (const item of asList(await pick(raw.get(pipeline.id), stages.records ?? 'stages'))) pipeline.stages.push(await stage(item, stages));
    }
    return pipelines;
  }
  // stages from a list of their own, each naming its pipeline (Bitrix24, Pipedrive)
  const byId = new Map(pipelines.map((p) => [p.id, p]));
  for (const item of await fetchItems(stages, requester, 'stages')) {
    const pipelineId = await text(item, stages.pipeline ?? 'pipeline_id');
    byId.get(pipelineId)?.stages.push(await stage(item, stages));
  }
  return pipelines;
}

async function stage(item: unknown, definition: DiscoverListDefinition): Promise<CatalogStage> {
  const outcome = definition.outcome ? await text(item, definition.outcome) : 'open';
  const creatable = definition.creatable ? await pick(item, definition.creatable) : true;
  return {
    id: await text(item, definition.id ?? 'id'),
    name: await text(item, definition.name ?? 'name'),
    outcome: (OUTCOMES as readonly string[]).includes(outcome) ? (outcome as Outcome) : 'open',
    ...(creatable === false ? { creatable: false as const } : {}),
  };
}

async function readFields(definition: DiscoverListDefinition, requester: Requester, list: string): Promise<CatalogField[]> {
  const fields: CatalogField[] = [];
  for (const item of await fetchItems(definition, requester, list)) {
    const id = await text(item, definition.id ?? 'id');
    if (id === '') continue;
    const type = definition.type ? await text(item, definition.type) : '';
    fields.push({ id, name: (await text(item, definition.name ?? 'name')) || id, type: type || null });
  }
  return fields;
}

async function readUsers(definition: DiscoverListDefinition, requester: Requester): Promise<CatalogUser[]> {
  const users: CatalogUser[] = [];
  for (const item of await fetchItems(definition, requester, 'users')) {
    const id = await text(item, definition.id ?? 'id');
    if (id !== '') users.push({ id, name: await text(item, definition.name ?? 'name') });
  }
  return users;
}

async function fetchItems(definition: DiscoverListDefinition, requester: Requester, list: string): Promise<unknown[]> {
  const request = definition.request;
  if (!request?.path) throw new Error(`discover.${list}: request.path is missing`);
  const spec = {
    method: request.method ?? 'GET', path: request.path, headers: request.headers,
    query: (await renderTemplate(request.query ?? {}, {})) as Record<string, unknown>,
    body: request.body === undefined ? undefined : await renderTemplate(request.body, {}),
  };
  const records = definition.records ?? '';
  try {
    // =JSONata records may pick none of a page's items: the list then ends on the paginator's token or URL
    return await listItems(requester, spec, definition.paginator, `discover.${list}`, async (body) => asList(await pick(body, records)), !records.startsWith('='));
  } catch (error) {
    if (definition.optional && error instanceof SourceError && isRefusal(error, definition.optional)) return [];
    throw error;
  }
}

/** A list, or an object keyed by id (Bitrix24 crm.deal.fields) as its entries with the key as `_key`. */
function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') return Object.entries(value).map(([key, item]) => ({ _key: key, ...(item as object) }));
  return [value];
}

const expressions = new Map<string, jsonata.Expression>();

/** A dotted path, or `=JSONata` evaluated on the item. */
async function pick(item: unknown, expression: string): Promise<unknown> {
  if (!expression.startsWith('=')) return getPath(item, expression);
  let compiled = expressions.get(expression);
  if (!compiled) {
    compiled = jsonata(expression.slice(1));
    expressions.set(expression, compiled);
  }
  return compiled.evaluate(item);
}

async function text(item: unknown, expression: string): Promise<string> {
  const value = await pick(item, expression);
  return value === undefined || value === null ? '' : String(value).trim();
}
