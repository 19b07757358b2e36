import type { OutboundStore } from '../../store/repositories/outbound.store';
import type { FlowPass, FlowPlan, OutboundFlow, PlannedWrite } from './outbound-flow';

/**
 * One pass of an outbound flow, the same for every flow: each page the flow reads from the service becomes
 * planned writes; those whose fingerprint equals the last written (or that the flow knows done: `knownDone`) are
 * counted unchanged and left alone; the rest the flow writes through the connector's CRM actions, and each batch the CRM answers is
 * recorded in one transaction (the fingerprints of what the CRM took, unless the flow keeps its own record; its
 * refusals as rejected records; the counters so far).
 */
export class OutboundRunner<Plan extends FlowPlan, Item, Write, Preview> {
  constructor(
    private readonly flow: OutboundFlow<Plan, Item, Write, Preview>,
    readonly pass: FlowPass<Plan>,
    private readonly store: OutboundStore,
  ) {}

  get counters(): Record<string, number> {
    return this.pass.counters;
  }

  /** Writes, recording each answered batch of the CRM in the run. */
  async run(runId: number): Promise<'succeeded' | 'interrupted'> {
    const { flow, pass, store } = this;
    pass.runId = runId;
    for await (const changed of this.changedItems()) {
      if (changed.length === 0) continue;
      const fingerprints = new Map(changed.map((c) => [c.id, c.fingerprint]));
      const context = { connectionId: pass.connectionId, settings: pass.settings, logger: pass.logger, signal: pass.signal, workDir: pass.workDir, secrets: pass.secrets, session: pass.session };
      for await (const batch of flow.write(changed.map((c) => c.write), pass, context)) {
        // a flow that knows what is done from its own repository gets no fingerprints: one record of a write, not two
        const written = flow.knownDone ? [] : batch.filter((o) => o.status === 'written').map((o) => ({ externalId: o.id, fingerprint: fingerprints.get(o.id) ?? '' }));
        const rejected = batch.flatMap((o) => (o.status === 'rejected' ? [{ externalId: o.id, ...flow.refusal(o), fingerprint: fingerprints.get(o.id) ?? '' }] : []));
        for (const o of batch) if (o.status === 'written') pass.counters[flow.writtenCounter?.(o) ?? flow.counting.written] += 1;
        pass.counters[flow.counting.rejected] += rejected.length;
        await store.recordBatch({ runId, connectionId: pass.connectionId, stream: flow.stream, written, rejected, counters: pass.counters });
      }
      if (pass.signal?.aborted) break;
    }
    await store.recordCounters(runId, pass.counters);
    return pass.signal?.aborted ? 'interrupted' : 'succeeded';
  }

  /** A dry run: what would be written where; nothing is written or stored. */
  async preview(): Promise<Preview> {
    const planned: PlannedWrite<Write>[] = [];
    for await (const changed of this.changedItems()) planned.push(...changed);
    return this.flow.preview(planned, this.pass);
  }

  /** Per page the flow reads: the planned writes not done yet (by the flow's knownDone, or a fingerprint that differs from the last written). */
  private async *changedItems(): AsyncGenerator<PlannedWrite<Write>[]> {
    const { flow, pass } = this;
    for await (const items of flow.read(pass)) {
      const planned = await flow.planItems(items, pass);
      const changed = await this.notDone(planned);
      pass.counters[flow.counting.unchanged] += planned.length - changed.length;
      yield changed;
    }
  }

  private async notDone(planned: PlannedWrite<Write>[]): Promise<PlannedWrite<Write>[]> {
    const { flow, pass } = this;
    const ids = planned.map((p) => p.id);
    if (flow.knownDone) {
      const done = await flow.knownDone(ids, pass);
      return planned.filter((p) => !done.has(p.id));
    }
    const last = await pass.store.fingerprints(pass.connectionId, flow.stream, ids);
    return planned.filter((p) => last.get(p.id) !== p.fingerprint);
  }
}
