import { Injectable } from '@nestjs/common';
import type { ConnectionConfig } from '../../config';
import type { ConnectorDefinition, ReadContext } from '../../connectors/connector-definition';
import { ProjectClients } from '../../projects/project-clients';
import type { OrderStatusDefinition } from '../../tracker/types/orders.types';

export interface ProjectStatusesReview {
  /** the project's statuses, when the service listed them */
  statuses?: OrderStatusDefinition[];
  warnings: string[];
}

/**
 * The part of `check` that looks at the status dictionary of the connection's project (outside the specification; public clients
 * list it with POST /project/integration/status/list): every `status_map` target the project does not know is
 * a warning (each deal mapped to it would be counted skipped_by_status), and with `statuses: register` the CRM's
 * stages the next run will register are named. Warnings never fail the check.
 */
@Injectable()
export class ProjectStatusesCheck {
  constructor(private readonly clients: ProjectClients) {}

  async review(
    connection: ConnectionConfig,
    definition: ConnectorDefinition | undefined,
    context: Omit<ReadContext, 'state'>,
  ): Promise<ProjectStatusesReview> {
    const statusMap = statusMapOf(definition?.statusMap ? definition.statusMap(connection.settings as never) : connection.settings?.status_map);
    const register = connection.statuses === 'register';
    if (!statusMap && !register) return { warnings: [] };
    let statuses: OrderStatusDefinition[];
    try {
      statuses = await this.clients.forConnection(connection).orders.listStatuses();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { warnings: [`the project's statuses could not be listed, so the status ids were not checked: ${reason}`] };
    }
    const warnings = statusMap ? unknownTargets(statusMap, statuses) : [];
    if (register) warnings.push(...await stagesToRegister(definition, context, statuses));
    return { statuses, warnings };
  }
}

function statusMapOf(map: unknown): Record<string, string> | undefined {
  if (!map || typeof map !== 'object' || Array.isArray(map)) return undefined;
  return Object.fromEntries(Object.entries(map as Record<string, unknown>).map(([stage, target]) => [stage, String(target)]));
}

/** One warning per target the project lacks, naming the stages mapped to it. */
function unknownTargets(statusMap: Record<string, string>, statuses: OrderStatusDefinition[]): string[] {
  const known = new Set(statuses.map((status) => status.id));
  const stagesOf = new Map<string, string[]>();
  for (const [stage, target] of Object.entries(statusMap)) {
    if (known.has(target)) continue;
    stagesOf.set(target, [...(stagesOf.get(target) ?? []), stage]);
  }
  const dictionary = statuses.map((status) => `${status.id} (${status.name}, ${status.type})`).join(', ') || 'none';
  return [...stagesOf].map(([target, stages]) =>
    `status_map: target "${target}" (for ${stages.map((stage) => `"${stage}"`).join(', ')}) is not a status of the project: `
    + `every such deal would be skipped (skipped_by_status). The project's statuses: ${dictionary}. `
    + 'Map to one of them, or send the CRM\'s own stages with statuses: register');
}

async function stagesToRegister(
  definition: ConnectorDefinition | undefined,
  context: Omit<ReadContext, 'state'>,
  statuses: OrderStatusDefinition[],
): Promise<string[]> {
  if (!definition?.stages) return [`statuses: register: connector ${definition?.name ?? '?'} cannot list the CRM's deal stages; use status_map`];
  try {
    const stages = await definition.stages(context.settings, context);
    const known = new Map(statuses.map((status) => [status.id, status]));
    const pending = stages.filter((stage) => known.get(stage.id)?.name !== stage.name || known.get(stage.id)?.type !== stage.type);
    if (pending.length === 0) return [];
    const named = pending.slice(0, 20).map((stage) => `${stage.id} (${stage.name}, ${stage.type})`).join(', ');
    return [`statuses: register: ${pending.length} of the CRM's ${stages.length} deal stages are not yet statuses of the project; `
      + `the next run registers them: ${named}${pending.length > 20 ? ', …' : ''}`];
  } catch (error) {
    return [`statuses: register: the CRM's deal stages could not be listed: ${error instanceof Error ? error.message : String(error)}`];
  }
}
