import type { CrmActionsCapability } from '../../../../connectors/crm-actions';
import { ATTRIBUTION_VALUES, AttributionValue, WriteBackPlan } from '../../../../connectors/connector-definition';

/** deals created this many days back or later are looked at, unless `since_days` says otherwise */
const DEFAULT_SINCE_DAYS = 30;

/** What a write-back pass needs of its block: the plan, and the deal field the connection's visit number is in. */
export interface WriteBackFlowPlan extends WriteBackPlan {
  /** the connection's visit_field (the connector's block carries it): never written into */
  visitField?: string;
}

/**
 * The connection's write-back from its settings block (`settings.write_back`, as the connector resolves it), or
 * null when the block sets no fields. The block's keys: `fields` (attribution value → the CRM deal field, id or
 * name), `since_days`, `schedule`; a connector that validates its settings has checked them already.
 */
export function writeBackPlan(capability: CrmActionsCapability | undefined, settings: object): WriteBackFlowPlan | null {
  const block = capability?.block(settings, 'write_back');
  const configured = block?.fields;
  if (!configured || typeof configured !== 'object' || Object.keys(configured).length === 0) return null;
  const fields: Partial<Record<AttributionValue, string>> = {};
  for (const [value, field] of Object.entries(configured)) {
    if (!(ATTRIBUTION_VALUES as readonly string[]).includes(value)) throw new Error(`settings.write_back.fields has an unknown value "${value}" (known: ${ATTRIBUTION_VALUES.join(', ')})`);
    fields[value as AttributionValue] = String(field);
  }
  const since = Number(block!.since_days ?? DEFAULT_SINCE_DAYS);
  return {
    fields,
    sinceDays: Number.isInteger(since) && since >= 1 ? since : DEFAULT_SINCE_DAYS,
    schedule: typeof block!.schedule === 'string' ? block!.schedule : undefined,
    visitField: typeof block!.visit_field === 'string' ? block!.visit_field : undefined,
  };
}
