import { DEAL_STAGE_TYPES, DealStage } from 'tracker-sync/connector';
import type { ReadContext } from 'tracker-sync/connector';
import { StagesDefinition } from './definition/stages-definition';
import { compileExpression, compileMapping, readFields } from './records/mapping';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { sourceSession } from './source-session';

/**
 * The CRM's deal stages (`settings.stages`, or the preset's): one request, its list of stages, each mapped to
 * `{id, name, type}`. A stage listed twice (amoCRM repeats its closing stages 142 and 143 in every pipeline) is kept
 * once. A stage whose type is not progress, paid or canceled fails the listing, naming the stage.
 */
export async function listStages(settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<DealStage[]> {
  const session = sourceSession(context);
  const definition: StagesDefinition | undefined = session.source.stages;
  const where = `connection ${context.connectionId}: settings.stages`;
  if (!definition?.request?.path || !definition.mapping?.id) {
    throw new Error(`${where} is not set (preset ${session.source.preset ?? 'none'} gives none): describe how to list `
      + 'the CRM\'s deal stages (request, records, mapping id/name/type), or use status_map instead of statuses: register');
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
