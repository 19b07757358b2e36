import type { AttributionValue, CatalogField, SourceCatalog } from '../connectors/connector-definition';
import type { ProjectStatuses } from './project-statuses';

/**
 * A mapping proposed from what the CRM says (`cli discover`, `init`): won stages to the project's paid status,
 * lost to canceled, the rest to in-work; the deal field that looks like the visit number; attribution and
 * lead-delivery fields that exist. Each key of `settings` is ready to paste under a connection's `settings:`.
 */
export interface Proposal {
  status_map: Record<string, string>;
  /** the visit field's id (names change, ids do not), or null when no field looks like one */
  visit_field: string | null;
  /** attribution value -> deal field id, for `write_back.fields`; null when no field fits */
  write_back: { fields: Partial<Record<AttributionValue, string>> } | null;
  /** where delivered leads would go: the first pipeline, its first open stage a deal can be created in, a field for the lead's id */
  lead_delivery: { pipeline: string; stage: string | null; lead_id_field: string | null } | null;
  /** what the user should know: a missing visit field and how to create one, statuses assumed */
  notes: string[];
}

/** Names that say "visit number" (the service was once named roistat; tracker is its field name). */
export const VISIT_FIELD_NAME = /roistat|tracker|visit|визит|посещени/i;

const ATTRIBUTION_NAMES: [AttributionValue, RegExp][] = [
  ['utm_source', /utm[\s_-]*source/i],
  ['utm_medium', /utm[\s_-]*medium/i],
  ['utm_campaign', /utm[\s_-]*campaign/i],
  ['utm_term', /utm[\s_-]*term/i],
  ['utm_content', /utm[\s_-]*content/i],
  ['channel', /^(channel|канал|источник|lead channel|канал рекламы)$/i],
  ['city', /^(city|город)$/i],
  ['landing_page', /landing|посадочн/i],
  ['referrer', /referr?er|реферер/i],
];

const LEAD_ID_NAME = /(lead|лид|заявк)[\w\s]*id|id[\s_-]*(lead|лид|заявк)/i;

export function propose(catalog: SourceCatalog, statuses: ProjectStatuses): Proposal {
  const notes: string[] = [];
  const target = { won: statuses.paid, lost: statuses.canceled, open: statuses.progress };
  const status_map: Record<string, string> = {};
  for (const pipeline of catalog.pipelines) {
    for (const stage of pipeline.stages) status_map[stage.id] ??= target[stage.outcome];
  }
  for (const status of catalog.deal_statuses) status_map[status.key] ??= target[status.outcome];
  if (statuses.source === 'default') {
    notes.push(`the project lists no order statuses: paid "${statuses.paid}", canceled "${statuses.canceled}", in work "${statuses.progress}" assumed (the service's defaults)`);
  }

  const visit = catalog.deal_fields.find((f) => VISIT_FIELD_NAME.test(f.name)) ?? catalog.deal_fields.find((f) => VISIT_FIELD_NAME.test(f.id));
  if (!visit) {
    notes.push(
      'no deal field looks like the visit number (a name with roistat, tracker, visit, визит or посещени): create a text field ' +
        'for deals named "tracker" in the CRM, have the site\'s forms and call tracking fill it with the visit number, then run discover again',
    );
  }

  const free = catalog.deal_fields.filter((f) => f !== visit);
  const fields: Partial<Record<AttributionValue, string>> = {};
  for (const [value, name] of ATTRIBUTION_NAMES) {
    const field = free.find((f) => name.test(f.name.trim()) && !Object.values(fields).includes(f.id));
    if (field) fields[value] = field.id;
  }

  const [main] = catalog.pipelines;
  const leadId = free.find((f: CatalogField) => LEAD_ID_NAME.test(f.name));
  return {
    status_map,
    visit_field: visit?.id ?? null,
    write_back: Object.keys(fields).length > 0 ? { fields } : null,
    lead_delivery: main
      ? { pipeline: main.id, stage: main.stages.find((s) => s.outcome === 'open' && s.creatable !== false)?.id ?? null, lead_id_field: leadId?.id ?? null }
      : null,
    notes,
  };
}
