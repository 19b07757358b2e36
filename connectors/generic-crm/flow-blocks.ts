import { plainToInstance } from 'class-transformer';
import { LEAD_REQUIRED_REQUESTS, LeadRequestDefinition } from './definition/lead-delivery-definition';
import { CrmActionDefinition } from './definition/crm-action-definition';
import { Requester } from './http/requester';
import { fetchFieldLabels } from './records/field-labels';
import { ResolvedSource } from './source-config';

/**
 * One action as the generic CRM serves it: its request, the settings key that describes it (for messages), how
 * many items a request takes, or code that reads it (write-back's `field_list`, whose records may be keyed by
 * field), or why it is missing.
 */
export interface ServedAction {
  definition?: CrmActionDefinition;
  setting: string;
  batchSize?: number;
  read?: (requester: Requester) => Promise<unknown>;
  /** the action is not described: its message (it counts as absent) */
  missing?: string;
}

/**
 * The settings blocks of write-back and lead delivery, which predate CRM actions: their keys keep their meaning
 * (`write_back.request`, `field_list`; `lead_delivery.requests.<step>`), served as the actions their flows name.
 * Each block also carries the connection's `visit_field` (write-back must not write into it, a lead's deal keeps
 * its visit there). Other keys: undefined (their block's `actions` are the actions).
 */
export const LEGACY_FLOW_BLOCKS: Record<string, { block(source: ResolvedSource): Record<string, unknown>; actions(source: ResolvedSource): Record<string, ServedAction> }> = {
  write_back: {
    block: (source) => ({ ...source.write_back, visit_field: source.visit_field }),
    actions(source) {
      const writeBack = source.write_back ?? {};
      const request = writeBack.request;
      const labels = writeBack.field_list;
      const served: Record<string, ServedAction> = {};
      served.update_deals = request?.path
        ? {
          definition: action({ method: request.method ?? 'POST', path: request.path, query: request.query, body: request.body, headers: request.headers, answer: request.rejected ?? '=[]', kind: 'update' }),
          setting: 'write_back.request',
          batchSize: request.batch_size ?? 1,
        }
        : { setting: 'write_back.request', missing: 'write_back.request.path is missing (no preset ships one: describe the update request)' };
      if (labels?.request?.path) {
        served.deal_fields = {
          setting: 'write_back.field_list',
          read: async (requester) => [...(await fetchFieldLabels(labels, requester, 'write_back.field_list'))].map(([key, name]) => ({ key, name })),
        };
      }
      return served;
    },
  },

  lead_delivery: {
    block: (source) => ({ ...source.lead_delivery, visit_field: source.visit_field }),
    actions(source) {
      const requests = (source.lead_delivery?.requests ?? {}) as Record<string, LeadRequestDefinition | undefined>;
      const served: Record<string, ServedAction> = {};
      for (const [name, request] of Object.entries(requests)) {
        if (!request?.path) continue;
        // the creates are sent once; every other step reads (HubSpot's searches are POSTs) or links, retried as reads are
        served[name] = { definition: action({ ...request, kind: LEAD_WRITES.has(name) ? 'write' : 'read' }), setting: `lead_delivery.requests.${name}` };
      }
      const why = source.preset ? `preset ${source.preset} ships no lead delivery` : 'no preset: describe the requests';
      for (const name of LEAD_REQUIRED_REQUESTS) served[name] ??= { setting: `lead_delivery.requests.${name}`, missing: `lead_delivery.requests.${name} is missing (${why})` };
      return served;
    },
  },
};

const LEAD_WRITES = new Set(['create_contact', 'create_deal', 'add_note']);

function action(plain: object): CrmActionDefinition {
  return plainToInstance(CrmActionDefinition, plain);
}
