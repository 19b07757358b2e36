import type { AttributionValue, ConnectorDefinition, ConnectorSecrets, DealWrite, WriteBackPlan } from '../../connectors/connector-definition';
import type { WriteBackStore } from '../../store/repositories/write-back.store';
import type { WriteBackCounters } from '../../runs/run-vocabulary';
import type { TrackerClient } from '../../tracker/tracker-client';
import type { Order } from '../../tracker/types/orders.types';
import type { EngineLogger } from '../engine-logger';
import { attributionOf, pickValues, writeFingerprint } from './attribution';
import { ordersWithVisits } from './order-pages';

const DAY_MS = 86_400_000;

export interface WriteBackInputs {
  connectionId: string;
  definition: ConnectorDefinition;
  settings: object;
  tracker: TrackerClient;
  store: WriteBackStore;
  logger: EngineLogger;
  workDir?: string;
  secrets?: ConnectorSecrets;
  signal?: AbortSignal;
  now?: Date;
}

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

/** The connection's write-back, or an error naming why it has none. */
export function writeBackPlanOf(connectionId: string, definition: ConnectorDefinition, settings: object): WriteBackPlan {
  if (!definition.write) throw new Error(`connection ${connectionId}: connector ${definition.name} cannot write back into its source`);
  const plan = definition.write.plan(settings);
  if (!plan) throw new Error(`connection ${connectionId}: settings.write_back.fields is not set: nothing to write back`);
  return plan;
}

/**
 * One write-back pass: the service's orders of the window (with their visits), the connection's deals
 * among them (those its syncs delivered), their attribution values, and the deals whose values changed
 * since the last write handed to the connector page by page. Deals without a visit are left alone.
 */
export class WriteBackRunner {
  readonly counters: WriteBackCounters = { attributed: 0, written: 0, unchanged: 0, rejected: 0 };
  private readonly plan: WriteBackPlan;

  constructor(private readonly inputs: WriteBackInputs) {
    this.plan = writeBackPlanOf(inputs.connectionId, inputs.definition, inputs.settings);
  }

  /** Writes, recording each answered batch of the CRM in the run. */
  async run(runId: number): Promise<'succeeded' | 'interrupted'> {
    const { store, connectionId } = this.inputs;
    for await (const changed of this.changedDeals()) {
      if (changed.length === 0) continue;
      const fingerprints = new Map(changed.map((c) => [c.deal.id, c.fingerprint]));
      const outcomes = this.inputs.definition.write!.write(changed.map((c) => c.deal), {
        connectionId, settings: this.inputs.settings, logger: this.inputs.logger, signal: this.inputs.signal, workDir: this.inputs.workDir, secrets: this.inputs.secrets,
      });
      for await (const batch of outcomes) {
        const written = batch.filter((o) => o.status === 'written').map((o) => ({ externalId: o.id, fingerprint: fingerprints.get(o.id) ?? '' }));
        const rejected = batch.flatMap((o) =>
          o.status === 'rejected'
            ? [{ externalId: o.id, field: o.field ?? 'write_back', reason: `the CRM refused the update: ${o.reason}`, fingerprint: fingerprints.get(o.id) ?? '' }]
            : [],
        );
        this.counters.written += written.length;
        this.counters.rejected += rejected.length;
        await store.recordBatch({ runId, connectionId, written, rejected, counters: this.counters });
      }
      if (this.inputs.signal?.aborted) break;
    }
    await store.recordCounters(runId, this.counters);
    return this.inputs.signal?.aborted ? 'interrupted' : 'succeeded';
  }

  /** A dry run: what would be written where; nothing is written or stored. */
  async preview(): Promise<WriteBackPreview> {
    const deals: WriteBackPreviewDeal[] = [];
    for await (const changed of this.changedDeals()) {
      for (const { deal } of changed) {
        const values = (Object.keys(deal.values) as AttributionValue[]).map((value) => ({ value, field: this.plan.fields[value]!, text: deal.values[value] ?? '' }));
        deals.push({ id: deal.id, values });
      }
    }
    return { connectionId: this.inputs.connectionId, counters: this.counters, deals };
  }

  /** Per page of orders: the connection's attributed deals whose values differ from the last written. */
  private async *changedDeals(): AsyncGenerator<{ deal: DealWrite; fingerprint: string }[]> {
    const { tracker, store, connectionId, signal } = this.inputs;
    const from = new Date((this.inputs.now ?? new Date()).getTime() - this.plan.sinceDays * DAY_MS);
    for await (const orders of ordersWithVisits(tracker, from, signal, `connection ${connectionId}`)) {
      const withVisit = orders.filter((order): order is Order & { visit: NonNullable<Order['visit']> } => !!order.visit);
      const ours = await store.knownDeals(connectionId, withVisit.map((o) => o.id));
      const attributed = withVisit.filter((o) => ours.has(o.id));
      this.counters.attributed += attributed.length;
      const last = await store.fingerprints(connectionId, attributed.map((o) => o.id));
      const changed: { deal: DealWrite; fingerprint: string }[] = [];
      for (const order of attributed) {
        const values = pickValues(attributionOf(order.visit), this.plan.fields);
        const fingerprint = writeFingerprint(values, this.plan.fields);
        if (last.get(order.id) === fingerprint) this.counters.unchanged++;
        else changed.push({ deal: { id: order.id, values }, fingerprint });
      }
      yield changed;
    }
  }
}
