import type { DealStage } from '../connectors/canonical';
import type { ConnectorDefinition, ConnectorLogger, ReadContext } from '../connectors/connector-definition';
import type { TrackerClient } from '../tracker/tracker-client';
import type { OrderStatusDefinition } from '../tracker/types/orders.types';

export interface StagesRegistration {
  stages: number;
  added: string[];
  changed: string[];
}

/**
 * `statuses: register`: the CRM's deal stages (the connector's `stages`) become statuses of the project, with their
 * names and groups, before deals are sent with those ids. set-statuses replaces the project's whole dictionary, so
 * the project's other statuses (another CRM's, the service's own) are read first and kept; nothing is sent when the
 * project already holds every stage as the CRM names and groups it.
 */
export async function registerStages(
  definition: ConnectorDefinition,
  context: Omit<ReadContext, 'state'>,
  tracker: TrackerClient,
  logger: Pick<ConnectorLogger, 'log'>,
): Promise<StagesRegistration> {
  if (!definition.stages) {
    throw new Error(`statuses: register needs the CRM's deal stages, and connector ${definition.name} cannot list them; use status_map (statuses: map)`);
  }
  const stages = await definition.stages(context.settings, context);
  if (stages.length === 0) throw new Error(`statuses: register: the CRM listed no deal stages`);
  const current = await tracker.orders.listStatuses();
  const plan = mergeStages(current, stages);
  if (plan.added.length || plan.changed.length) {
    await tracker.orders.setStatuses(plan.statuses);
    logger.log(`statuses: registered ${stages.length} CRM stages in the project (new: ${list(plan.added)}; renamed or regrouped: ${list(plan.changed)})`);
  }
  return { stages: stages.length, added: plan.added, changed: plan.changed };
}

/** The project's dictionary with the CRM's stages put in (by id); the other statuses stay as they are. */
export function mergeStages(current: OrderStatusDefinition[], stages: DealStage[]):
{ statuses: OrderStatusDefinition[]; added: string[]; changed: string[] } {
  const byId = new Map(current.map((status) => [status.id, status]));
  const added: string[] = [];
  const changed: string[] = [];
  for (const stage of stages) {
    const known = byId.get(stage.id);
    if (!known) added.push(stage.id);
    else if (known.name !== stage.name || known.type !== stage.type) changed.push(stage.id);
    byId.set(stage.id, { id: stage.id, name: stage.name, type: stage.type });
  }
  return { statuses: [...byId.values()], added, changed };
}

function list(ids: string[]): string {
  if (ids.length === 0) return 'none';
  return ids.length > 10 ? `${ids.slice(0, 10).join(', ')}, … (${ids.length})` : ids.join(', ');
}
