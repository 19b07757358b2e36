import type { AttributionValue, ConnectorDefinition, DealWrite, WriteContext } from '../../../../connectors/connector-definition';
import type { CrmActions } from '../../../../connectors/crm-actions';
import type { WriteBackCounters } from '../../../../runs/run-vocabulary';
import type { Order } from '../../../../tracker/types/orders.types';
import type { FlowEstimate, FlowPass, OutboundFlow, PlannedWrite } from '../../outbound-flow';
import { attributionOf, pickValues, writeFingerprint } from './attribution';
import { AttributedOrder, ordersByInfo } from './order-info';
import { ordersWithVisits } from './order-pages';
import { planLine } from './plan-text';
import { planPass, WriteBackPassPlan, windowStart } from './pass-plan';
import { fieldKeys, updateDeals, WRITE_BACK_ACTIONS } from './deal-updates';
import { WriteBackFlowPlan, writeBackPlan } from './write-back-settings';

type WriteBackPlan = WriteBackFlowPlan;

/** The plan each pass took (its dry run shows it). */
const passPlans = new WeakMap<FlowPass<WriteBackPlan>, WriteBackPassPlan>();

/** A deal a dry run would write, with each value under the CRM field it goes to. */
export interface WriteBackPreviewDeal {
  id: string;
  values: { value: AttributionValue; field: string; text: string }[];
}

export interface WriteBackPreview {
  connectionId: string;
  counters: WriteBackCounters;
  deals: WriteBackPreviewDeal[];
  /** how the pass read the visits, and what that cost */
  plan?: FlowEstimate;
}

/**
 * Write-back, the first outbound flow: the connection's deals of the window (those its syncs delivered) with
 * their visits, their attribution values, and the deals whose values changed since the last write, written with
 * the connector's CRM action `update_deals` (deal-updates.ts). Deals without a visit are left alone. The visits come
 * the cheaper way for this pass (pass-plan.ts): the window's order list pages, or each deal's order info.
 */
export const writeBackFlow: OutboundFlow<WriteBackPlan, AttributedOrder, DealWrite, WriteBackPreview> = {
  name: 'write_back',
  stream: 'write_back',
  settingsKey: 'write_back',
  actions: WRITE_BACK_ACTIONS,
  counting: { unchanged: 'unchanged', written: 'written', rejected: 'rejected' },

  planOf(definition: ConnectorDefinition, settings: object): WriteBackPlan | null {
    return writeBackPlan(definition.actions, settings);
  },

  noPlan(connectionId: string, definition: ConnectorDefinition): string {
    return definition.actions
      ? `connection ${connectionId}: settings.write_back.fields is not set: nothing to write back`
      : `connection ${connectionId}: connector ${definition.name} cannot write back into its source`;
  },

  notConfigured(connectionId: string): string {
    return `connection ${connectionId} writes nothing back: its connector has no write capability or settings.write_back.fields is not set`;
  },

  async *read(pass: FlowPass<WriteBackPlan>): AsyncGenerator<AttributedOrder[]> {
    const from = windowStart(pass);
    const where = `connection ${pass.connectionId}`;
    const plan = await planPass(pass);
    passPlans.set(pass, plan);
    pass.logger.log(planLine(pass.connectionId, plan.estimate));
    if (plan.way === 'order_pages') {
      const total = plan.estimate.chosen.requests;
      let done = 0;
      for await (const orders of ordersWithVisits(pass.tracker, from, pass.signal, where, plan.first)) {
        pass.progress?.({ done: ++done, total, unit: 'pages' });
        yield withVisit(orders);
      }
      return;
    }
    yield withVisit(plan.first.data ?? []);
    const total = plan.dealIds.length;
    pass.progress?.({ done: 0, total, unit: 'deals' });
    yield* ordersByInfo(pass.tracker, plan.dealIds, from, pass.signal, where, (done) => pass.progress?.({ done, total, unit: 'deals' }));
  },

  async estimate(pass: FlowPass<WriteBackPlan>): Promise<FlowEstimate> {
    return (await planPass(pass)).estimate;
  },

  /** The connection's attributed deals of the page, each with the values its plan names. */
  async planItems(withVisit: AttributedOrder[], pass: FlowPass<WriteBackPlan>): Promise<PlannedWrite<DealWrite>[]> {
    const ours = await pass.store.known(pass.connectionId, 'deals', withVisit.map((o) => o.id));
    const attributed = withVisit.filter((o) => ours.has(o.id));
    pass.counters.attributed += attributed.length;
    return attributed.map((order) => {
      const values = pickValues(attributionOf(order.visit), pass.plan.fields);
      return { id: order.id, write: { id: order.id, values }, fingerprint: writeFingerprint(values, pass.plan.fields) };
    });
  },

  write(deals, pass, context) {
    return updateDeals(openActions(pass, context), pass.plan, deals, `connection ${pass.connectionId}`, pass.signal);
  },

  /** Every configured field found in the CRM's field list (by key, or by name in any case). */
  async check(plan, definition, context): Promise<string> {
    const actions = definition.actions!.open('write_back', context);
    const keys = await fieldKeys(actions, plan, `connection ${context.connectionId}`);
    const listed = actions.has('deal_fields') ? 'found in the CRM\'s field list' : 'taken as given (no field_list to check them against)';
    return `write_back: ${Object.entries(keys).map(([value, key]) => `${value} → ${key}`).join(', ')} (${listed})`;
  },

  refusal(outcome) {
    return { field: outcome.field ?? 'write_back', reason: `the CRM refused the update: ${outcome.reason}` };
  },

  preview(planned, pass): WriteBackPreview {
    const deals = planned.map(({ write: deal }) => ({
      id: deal.id,
      values: (Object.keys(deal.values) as AttributionValue[]).map((value) => ({ value, field: pass.plan.fields[value]!, text: deal.values[value] ?? '' })),
    }));
    return { connectionId: pass.connectionId, counters: pass.counters as WriteBackCounters, deals, plan: passPlans.get(pass)?.estimate };
  },
};

/** The connection's write-back actions, opened once a pass (within its session). */
function openActions(pass: FlowPass<WriteBackPlan> & { actions?: CrmActions }, context: WriteContext): CrmActions {
  pass.actions ??= pass.definition.actions!.open('write_back', context);
  return pass.actions;
}

function withVisit(orders: Order[]): AttributedOrder[] {
  return orders.filter((order): order is Order & AttributedOrder => !!order.visit);
}
