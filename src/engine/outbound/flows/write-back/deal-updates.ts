import type { AttributionValue, DealWrite, WriteOutcome } from '../../../../connectors/connector-definition';
import { CrmActionRefusedError, CrmActions } from '../../../../connectors/crm-actions';
import { dealFieldKey, dealFieldsOf } from '../../../../connectors/deal-fields';
import type { WriteBackFlowPlan } from './write-back-settings';

/** The CRM actions write-back asks for: the update (required) and the field list (to find fields by name). */
export const WRITE_BACK_ACTIONS = { required: ['update_deals'], optional: ['deal_fields'] } as const;

/**
 * The deals' values into the CRM, batch by batch (as many deals a request as `update_deals` takes), each batch's
 * outcomes as soon as the CRM answered, one per deal. `update_deals` takes `deals` ([{ id, values: { <field key>:
 * text }, fields: [{ id, value }] }]) and `id`, `values`, `fields` of the first, and answers the deals the CRM
 * refused inside its 2xx answer ([{ id, reason }]); the CRM refusing the request (a 4xx) is asked again in halves, so
 * that only the deals it refuses on their own are rejected.
 * Anything else (the token, the network after retries, a field the CRM does not have) throws: the pass fails.
 */
export async function* updateDeals(actions: CrmActions, plan: WriteBackFlowPlan, deals: DealWrite[], where: string, signal?: AbortSignal): AsyncGenerator<WriteOutcome[]> {
  const keys = await fieldKeys(actions, plan, where);
  const size = Math.max(1, actions.batchSize?.('update_deals') ?? 1);
  for (let start = 0; start < deals.length; start += size) {
    if (signal?.aborted) return;
    yield await updateBatch(actions, deals.slice(start, start + size), keys);
  }
}

/**
 * Each configured field as the key the update takes: found in the CRM's field list (`deal_fields`: an exact key,
 * else a label in any case), or as given when the connector lists no fields. Never the visit field.
 */
export async function fieldKeys(actions: CrmActions, plan: WriteBackFlowPlan, where: string): Promise<Partial<Record<AttributionValue, string>>> {
  const wanted = Object.entries(plan.fields) as [AttributionValue, string][];
  const visit = plan.visitField?.toLowerCase();
  const intoVisit = wanted.find(([, field]) => field.toLowerCase() === visit);
  if (intoVisit) throw new Error(`${where}: write_back.fields.${intoVisit[0]}: "${intoVisit[1]}" is the visit_field: writing into it would change the visit number the deals are sent with`);
  const fields = actions.has('deal_fields') ? dealFieldsOf(await actions.run('deal_fields', {})) : null;
  return Object.fromEntries(wanted.map(([value, field]) => [value, fields ? dealFieldKey(fields, field, `write_back.fields.${value}`) : field]));
}

async function updateBatch(actions: CrmActions, batch: DealWrite[], keys: Partial<Record<AttributionValue, string>>): Promise<WriteOutcome[]> {
  const deals = batch.map((deal) => {
    const entries = Object.entries(deal.values).map(([value, text]) => ({ id: keys[value as AttributionValue]!, value: text ?? '' }));
    return { id: deal.id, values: Object.fromEntries(entries.map((e) => [e.id, e.value])), fields: entries };
  });
  let answer: unknown;
  try {
    answer = await actions.run('update_deals', { deals, id: deals[0].id, values: deals[0].values, fields: deals[0].fields });
  } catch (error) {
    if (!(error instanceof CrmActionRefusedError)) throw error;
    if (batch.length === 1) return [{ id: batch[0].id, status: 'rejected' as const, reason: error.reason }];
    // the CRM refused the whole request for some of its deals (amoCRM: one deleted lead refuses its 49 neighbours):
    // each half goes again until a refusal names one deal. Nothing of a refused request was applied, and an update
    // sets values, so sending a deal again changes nothing; at most 2n-1 requests for n deals.
    const half = Math.ceil(batch.length / 2);
    return [...await updateBatch(actions, batch.slice(0, half), keys), ...await updateBatch(actions, batch.slice(half), keys)];
  }
  const refused = refusedIn(answer);
  return batch.map((deal) => (refused.has(deal.id)
    ? { id: deal.id, status: 'rejected' as const, reason: refused.get(deal.id)! }
    : { id: deal.id, status: 'written' as const }));
}

/** The answer's refused deals: [{ id, reason }] (one, or none). */
function refusedIn(answer: unknown): Map<string, string> {
  const list = answer === undefined || answer === null ? [] : Array.isArray(answer) ? answer : [answer];
  const refused = new Map<string, string>();
  for (const item of list as { id?: unknown; reason?: unknown }[]) {
    if (item?.id === undefined || item.id === null) continue;
    refused.set(String(item.id), item.reason === undefined ? 'the CRM refused the update' : String(item.reason));
  }
  return refused;
}
