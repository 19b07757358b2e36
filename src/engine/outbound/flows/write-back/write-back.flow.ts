import type { AttributionValue, ConnectorDefinition, DealWrite, WriteBackPlan } from '../../../../connectors/connector-definition';
import type { WriteBackCounters } from '../../../../runs/run-vocabulary';
import type { Order } from '../../../../tracker/types/orders.types';
import type { FlowPass, OutboundFlow, PlannedWrite } from '../../outbound-flow';
import { attributionOf, pickValues, writeFingerprint } from './attribution';
import { ordersWithVisits } from './order-pages';

const DAY_MS = 86_400_000;

type OrderWithVisit = Order & { visit: NonNullable<Order['visit']> };

/** A deal a dry run would write, with each value under the CRM field it goes to. */
export interface WriteBackPreviewDeal {
  id: string;
  values: { value: AttributionValue; field: string; text: string }[];
}

export interface WriteBackPreview {
  connectionId: string;
  counters: WriteBackCounters;
  deals: WriteBackPreviewDeal[];
}

/**
 * Write-back, the first outbound flow: the service's orders of the window (with their visits), the connection's
 * deals among them (those its syncs delivered), their attribution values, and the deals whose values changed
 * since the last write handed to the connector's `update_deals` (WriteCapability.write). Deals without a visit
 * are left alone.
 */
export const writeBackFlow: OutboundFlow<WriteBackPlan, OrderWithVisit, DealWrite, WriteBackPreview> = {
  name: 'write_back',
  stream: 'write_back',
  counting: { unchanged: 'unchanged', written: 'written', rejected: 'rejected' },

  planOf(definition: ConnectorDefinition, settings: object): WriteBackPlan | null {
    return definition.write?.plan(settings) ?? null;
  },

  noPlan(connectionId: string, definition: ConnectorDefinition): string {
    return definition.write
      ? `connection ${connectionId}: settings.write_back.fields is not set: nothing to write back`
      : `connection ${connectionId}: connector ${definition.name} cannot write back into its source`;
  },

  notConfigured(connectionId: string): string {
    return `connection ${connectionId} writes nothing back: its connector has no write capability or settings.write_back.fields is not set`;
  },

  async *read(pass: FlowPass<WriteBackPlan>): AsyncGenerator<OrderWithVisit[]> {
    const from = new Date(pass.now.getTime() - pass.plan.sinceDays * DAY_MS);
    for await (const orders of ordersWithVisits(pass.tracker, from, pass.signal, `connection ${pass.connectionId}`)) {
      yield orders.filter((order): order is OrderWithVisit => !!order.visit);
    }
  },

  /** The connection's attributed deals of the page, each with the values its plan names. */
  async planItems(withVisit: OrderWithVisit[], pass: FlowPass<WriteBackPlan>): Promise<PlannedWrite<DealWrite>[]> {
    const ours = await pass.store.known(pass.connectionId, 'deals', withVisit.map((o) => o.id));
    const attributed = withVisit.filter((o) => ours.has(o.id));
    pass.counters.attributed += attributed.length;
    return attributed.map((order) => {
      const values = pickValues(attributionOf(order.visit), pass.plan.fields);
      return { id: order.id, write: { id: order.id, values }, fingerprint: writeFingerprint(values, pass.plan.fields) };
    });
  },

  write(deals, pass, context) {
    return pass.definition.write!.write(deals, context);
  },

  refusal(outcome) {
    return { field: outcome.field ?? 'write_back', reason: `the CRM refused the update: ${outcome.reason}` };
  },

  preview(planned, pass): WriteBackPreview {
    const deals = planned.map(({ write: deal }) => ({
      id: deal.id,
      values: (Object.keys(deal.values) as AttributionValue[]).map((value) => ({ value, field: pass.plan.fields[value]!, text: deal.values[value] ?? '' })),
    }));
    return { connectionId: pass.connectionId, counters: pass.counters as WriteBackCounters, deals };
  },
};
