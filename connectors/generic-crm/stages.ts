import { DEAL_STAGE_TYPES, DealStage } from 'tracker-sync/connector';
import type { ReadContext } from 'tracker-sync/connector';
import { StagesDefinition } from './definition/stages-definition';
import { readStageCatalog, StageCatalog } from './discovery/catalog';
import { compileExpression, compileMapping, readFields } from './records/mapping';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { resolveSource } from './source-config';
import { sourceSession } from './source-session';

const TYPE_OF_OUTCOME = { won: 'paid', lost: 'canceled', open: 'progress' } as const;

/**
 * The CRM's deal stages for `statuses: register`, `{id, name, type}` each: read from the one description of the
 * stages, `discover:` (every pipeline's stages, paged as discovery pages them, and the deal statuses that are no
 * stage), won → paid, lost → canceled, open → progress. A user's own `settings.stages` (the older form: one
 * request with a mapping of id, name and type) still wins where it is given.
 */
export async function listStages(settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<DealStage[]> {
  const declared = resolveSource(settings).stages;
  if (declared) return listDeclaredStages(declared, context);
  return stagesOfCatalog(await readStageCatalog(settings, context));
}

/**
 * A stage listed in several pipelines under one id (amoCRM's 142 won and 143 lost) is kept once, as its first
 * pipeline names it. A name two different stages share ("New" in two pipelines) is prefixed with the stage's
 * pipeline ("Sales: New", "Partners: New"), so the project's statuses stay told apart; unique names are kept
 * as the CRM has them.
 */
export function stagesOfCatalog(catalog: StageCatalog): DealStage[] {
  const stages = new Map<string, DealStage & { pipeline: string | null }>();
  for (const pipeline of catalog.pipelines) {
    for (const stage of pipeline.stages) {
      if (!stage.id || stages.has(stage.id)) continue;
      stages.set(stage.id, { id: stage.id, name: stage.name || stage.id, type: TYPE_OF_OUTCOME[stage.outcome], pipeline: pipeline.name || pipeline.id });
    }
  }
  for (const status of catalog.deal_statuses) {
    if (!stages.has(status.key)) stages.set(status.key, { id: status.key, name: status.name || status.key, type: TYPE_OF_OUTCOME[status.outcome], pipeline: null });
  }
  const named = new Map<string, number>();
  for (const stage of stages.values()) named.set(stage.name, (named.get(stage.name) ?? 0) + 1);
  return [...stages.values()].map(({ pipeline, ...stage }) =>
    (pipeline && named.get(stage.name)! > 1 ? { ...stage, name: `${pipeline}: ${stage.name}` } : stage));
}

/**
 * The older form, `settings.stages`: one request, its list of stages, each mapped to `{id, name, type}`. A stage
 * listed twice is kept once. A stage whose type is not progress, paid or canceled fails the listing, naming the stage.
 */
async function listDeclaredStages(definition: StagesDefinition, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<DealStage[]> {
  const session = sourceSession(context);
  const where = `connection ${context.connectionId}: settings.stages`;
  if (!definition.request?.path || !definition.mapping?.id) {
    throw new Error(`${where} needs request.path and mapping.id (the older form: one request, records, mapping id/name/type); `
      + 'or remove it: the stages are then read as settings.discover (or the preset) describes them');
  }
  const request = definition.request;
  const answer = await session.requester('stages').send({
    method: request.method ?? 'GET', path: request.path!, query: request.query, body: request.body, headers: request.headers,
  });
  const records = definition.records ?? '';
  const found = records.startsWith('=')
    ? await compileExpression(records.slice(1), `${where}.records`)(answer.body)
    : getPath(answer.body, records);
  const items = Array.isArray(found) ? found : found === undefined || found === null ? [] : [found];
  const fields = compileMapping(definition.mapping as Record<string, never>, where);
  const stages = new Map<string, DealStage>();
  for (const item of items) {
    const values = await readFields(fields, item);
    if (values.id === undefined || values.id === null || values.id === '') continue;
    const id = String(values.id);
    const type = String(values.type ?? 'progress');
    if (!(DEAL_STAGE_TYPES as readonly string[]).includes(type)) {
      throw new Error(`${where}.mapping.type: stage ${id} has type ${JSON.stringify(type)}; it must be one of ${DEAL_STAGE_TYPES.join(', ')}`);
    }
    const name = values.name === undefined || values.name === null || values.name === '' ? id : String(values.name);
    if (!stages.has(id)) stages.set(id, { id, name, type: type as DealStage['type'] });
  }
  return [...stages.values()];
}
