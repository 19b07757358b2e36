import type { CrmActionsCapability } from '../../../../connectors/crm-actions';
import type { FlowPlan } from '../../outbound-flow';

/** What a user's `lead_delivery` leaves out. */
export const LEAD_DEFAULTS = { schedule: '* * * * *', title: '{{title}}', duplicates: 'attach', duplicate_days: 30, settle_seconds: 10 } as const;

/** A connection's lead delivery, from its settings block `lead_delivery` as the connector resolves it. */
export interface LeadDeliveryPlan extends FlowPlan {
  /** cron of the flow's passes (default every minute) */
  schedule: string;
  /** first day (YYYY-MM-DD, the service's UTC days) of proxy leads to take; undefined: the day of the first pass */
  since?: string;
  /** deal title template: `{{title}}`, `{{name}}`, any proxy lead field */
  title: string;
  /** more deal fields (id or name as the user wrote them) → templates */
  fields: Record<string, string>;
  /** attach: a contact's open deal in the pipeline gets a note instead of a new deal; create: always a new deal */
  duplicates: 'attach' | 'create';
  /** how far back an open deal of the same contact counts */
  duplicateDays: number;
  /** the CRM's pipeline, stage and responsible user (id or name); undefined: the main pipeline, its first open stage, none */
  pipeline?: string;
  stage?: string;
  responsible?: string;
  /** the deal field (id or name) that keeps the proxy lead id: what a create whose outcome is unknown is looked up by */
  leadIdField: string;
  /** the deal field (id or name) of the visit number (the connection's visit_field, carried by the block) */
  visitField: string;
  /** how long (ms) a created deal or contact may take to show in find_deals / find_contacts (`lookup_lag_seconds`: a search index filled after the write) */
  lookupLagMs: number;
  /**
   * the least time (ms) after a create's unknown outcome (a 5xx, a timeout, a dropped connection) before it is looked
   * up (`settle_seconds`, default 10): a gateway's 504 or our timeout can come while the CRM still makes the record
   */
  settleMs: number;
}

/**
 * The connection's plan, or null when its settings have no `lead_delivery`. The block's keys keep their meaning
 * (README "Leads into the CRM"); a connector that validates its settings (generic-crm) has checked them already.
 */
export function leadDeliveryPlan(capability: CrmActionsCapability | undefined, settings: object): LeadDeliveryPlan | null {
  const block = capability?.block(settings, 'lead_delivery');
  if (!block) return null;
  const text = (value: unknown) => (value === undefined || value === null || String(value).trim() === '' ? undefined : String(value).trim());
  const fields = block.fields && typeof block.fields === 'object' ? (block.fields as Record<string, unknown>) : {};
  return {
    schedule: text(block.schedule) ?? LEAD_DEFAULTS.schedule,
    since: text(block.since),
    title: typeof block.title === 'string' ? block.title : LEAD_DEFAULTS.title,
    fields: Object.fromEntries(Object.entries(fields).map(([field, template]) => [field, String(template)])),
    duplicates: block.duplicates === 'create' ? 'create' : LEAD_DEFAULTS.duplicates,
    duplicateDays: typeof block.duplicate_days === 'number' ? block.duplicate_days : LEAD_DEFAULTS.duplicate_days,
    pipeline: text(block.pipeline),
    stage: text(block.stage),
    responsible: text(block.responsible),
    leadIdField: text(block.lead_id_field) ?? '',
    visitField: text(block.visit_field) ?? 'tracker',
    lookupLagMs: (typeof block.lookup_lag_seconds === 'number' ? block.lookup_lag_seconds : 0) * 1000,
    settleMs: (typeof block.settle_seconds === 'number' ? block.settle_seconds : LEAD_DEFAULTS.settle_seconds) * 1000,
  };
}
