import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import type { ConnectorDefinition, WriteOutcome } from '../../../src/connectors/connector-definition';
import type { FlowPass, OutboundFlow } from '../../../src/engine/outbound/outbound-flow';
import { OutboundRunner } from '../../../src/engine/outbound/outbound-runner';
import type { OutboundFlowName } from '../../../src/runs/outbound-flows';
import { createStoreDataSource } from '../../../src/store/store-data-source';
import { StoreRepositories } from '../../../src/store/store-repositories';
import type { TrackerClient } from '../../../src/tracker/tracker-client';

/** A flow of the shape a second one takes (leads into the CRM): items read, notes planned, creates answered with an id. */
interface Lead {
  id: string;
  title: string;
}

function leadsLikeFlow(pages: Lead[][], refuse: Set<string>, sent: string[][]): OutboundFlow<{ schedule?: string }, Lead, Lead, string[]> {
  return {
    name: 'leads_like' as OutboundFlowName,
    stream: 'leads_like',
    settingsKey: 'leads_like',
    counting: { unchanged: 'already_delivered', written: 'created', rejected: 'rejected' },
    planOf: () => ({}),
    noPlan: (id) => `connection ${id}: no plan`,
    notConfigured: (id) => `connection ${id}: not configured`,
    async *read() {
      for (const page of pages) yield page;
    },
    async planItems(items, pass) {
      pass.counters.found += items.length;
      return items.map((lead) => ({ id: lead.id, write: lead, fingerprint: `l1:${lead.title}` }));
    },
    async *write(leads): AsyncGenerator<WriteOutcome<{ dealId: string }>[]> {
      sent.push(leads.map((l) => l.id));
      yield leads.map((l) => (refuse.has(l.id) ? { id: l.id, status: 'rejected', reason: 'no pipeline' } : { id: l.id, status: 'written', dealId: `d-${l.id}` }));
    },
    refusal: (outcome) => ({ field: 'lead', reason: `the CRM refused the create: ${outcome.reason}` }),
    preview: (planned) => planned.map((p) => p.id),
  };
}

describe('OutboundRunner: what every outbound flow does the same way', () => {
  let dir: string;
  let ds: DataSource;
  let stores: StoreRepositories;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbound-runner-'));
    ds = await createStoreDataSource({ dataDir: dir });
    stores = new StoreRepositories(ds);
  });
  afterEach(async () => {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  function pass(): FlowPass {
    return {
      connectionId: 'crm', definition: {} as ConnectorDefinition, settings: {}, plan: {}, tracker: {} as TrackerClient, store: stores.outbound,
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined }, now: new Date(),
      counters: { found: 0, created: 0, attached: 0, already_delivered: 0, rejected: 0 },
    };
  }

  it('writes only what changed since the last write, records each answered batch, counts in the names the flow gives', async () => {
    const pages = [[{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }], [{ id: 'c', title: 'C' }]];
    const sent: string[][] = [];
    const first = await stores.runs.create({ connectionId: 'crm', mode: 'write_back', since: null, trigger: 'cli', holder: 'h' });
    const runner = new OutboundRunner(leadsLikeFlow(pages, new Set(['c']), sent), pass(), stores.outbound);
    expect(await runner.run(first.id)).toBe('succeeded');
    expect(sent).toEqual([['a', 'b'], ['c']]);
    expect(runner.counters).toEqual({ found: 3, created: 2, attached: 0, already_delivered: 0, rejected: 1 });
    expect((await stores.runs.get(first.id))!.flow_counters).toEqual(runner.counters);
    const { rows } = await stores.rejected.pageOf(first.id, { limit: 10, offset: 0 });
    expect(rows.map((r) => [r.stream, r.external_id, r.field, r.reason])).toEqual([['leads_like', 'c', 'lead', 'the CRM refused the create: no pipeline']]);

    // the next pass: a and b were written with these fingerprints; c was refused, so it goes again; b changed
    pages[0][1] = { id: 'b', title: 'B2' };
    sent.length = 0;
    const second = await stores.runs.create({ connectionId: 'crm', mode: 'write_back', since: null, trigger: 'cli', holder: 'h' });
    const again = new OutboundRunner(leadsLikeFlow(pages, new Set(), sent), pass(), stores.outbound);
    expect(await again.run(second.id)).toBe('succeeded');
    expect(sent).toEqual([['b'], ['c']]);
    expect(again.counters).toEqual({ found: 3, created: 2, attached: 0, already_delivered: 1, rejected: 0 });
  });

  it('a dry run answers what would be written, and writes and stores nothing', async () => {
    const sent: string[][] = [];
    const runner = new OutboundRunner(leadsLikeFlow([[{ id: 'a', title: 'A' }]], new Set(), sent), pass(), stores.outbound);
    expect(await runner.preview()).toEqual(['a']);
    expect(sent).toEqual([]);
    expect(await stores.outbound.fingerprints('crm', 'leads_like', ['a'])).toEqual(new Map());
  });
});
