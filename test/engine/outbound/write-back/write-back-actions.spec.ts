import type { ConnectorDefinition, DealWrite, WriteOutcome } from '../../../../src/connectors/connector-definition';
import { CrmActionRefusedError, CrmActions, CrmActionsCapability } from '../../../../src/connectors/crm-actions';
import { checkFlows } from '../../../../src/engine/outbound/flows/flow-checks';
import { writeBackFlow } from '../../../../src/engine/outbound/flows/write-back/write-back.flow';
import { writeDeals } from '../../../support/write-back-pass';

/**
 * Write-back asks the CRM the one way every flow does (issue 40): the connector's CRM actions `update_deals` (as
 * many deals a request as its batch size) and `deal_fields`. A plugin that serves them in code, with no capability
 * of write-back's own, gets write-back.
 */
const sent: { deals: { id: string; values: Record<string, string> }[] }[] = [];

class PluginActions implements CrmActions {
  has = (name: string) => name === 'update_deals' || name === 'deal_fields';
  reads = (name: string) => name === 'deal_fields';
  batchSize = () => 2;
  async run(name: string, variables: Record<string, unknown>): Promise<unknown> {
    if (name === 'deal_fields') return [{ key: 'f_1', name: 'Ad source' }, { key: 'f_2', name: 'City' }];
    const deals = variables.deals as { id: string; values: Record<string, string> }[];
    sent.push({ deals });
    if (deals.some((d) => d.id === 'locked')) throw new CrmActionRefusedError('the CRM refused it: HTTP 409: locked', 'update_deals', 'HTTP 409: locked', 409);
    // the CRM's answer names the deals it refused inside a 2xx
    return deals.filter((d) => d.id === 'gone').map((d) => ({ id: d.id, reason: 'no such deal' }));
  }
}

const capability: CrmActionsCapability<{ write_back?: object }> = {
  block: (settings, key) => ((settings as Record<string, unknown>)[key] as Record<string, unknown>) ?? null,
  open: () => new PluginActions(),
  flowKeys: () => [],
};

const plugin = {
  name: 'plugin-crm', settingsClass: Object, streams: () => [], check: async () => ({ ok: true, message: 'ok' }), read: async function* () {},
  actions: capability,
} as unknown as ConnectorDefinition;

async function collect(iterable: AsyncIterable<WriteOutcome[]>): Promise<WriteOutcome[][]> {
  const batches: WriteOutcome[][] = [];
  for await (const batch of iterable) batches.push(batch);
  return batches;
}

describe('write-back over CRM actions', () => {
  const settings = { write_back: { fields: { channel: 'ad source', city: 'f_2' }, since_days: 7 } };
  const context = { connectionId: 'p1', settings, logger: { log: () => {}, warn: () => {} } };

  it("plans from the connector's block and checks the fields through deal_fields", async () => {
    expect(writeBackFlow.planOf(plugin, settings)).toEqual({ fields: { channel: 'ad source', city: 'f_2' }, sinceDays: 7, schedule: undefined, visitField: undefined });
    expect(writeBackFlow.planOf(plugin, {})).toBeNull();
    expect(await checkFlows(plugin, settings, context)).toEqual({ ok: true, message: "write_back: channel → f_1, city → f_2 (found in the CRM's field list)" });
  });

  it('writes by field key, batch by batch; a deal refused inside an answer is rejected, a refused batch is asked again in halves', async () => {
    const deals: DealWrite[] = ['1', 'gone', 'locked', '4', '5'].map((id) => ({ id, values: { channel: 'SEO', city: 'Perm' } }));
    expect(await collect(writeDeals(plugin, deals, context))).toEqual([
      [{ id: '1', status: 'written' }, { id: 'gone', status: 'rejected', reason: 'no such deal' }],
      // the CRM refused the request of 'locked' and '4' whole: each alone again, and only 'locked' is refused
      [{ id: 'locked', status: 'rejected', reason: 'HTTP 409: locked' }, { id: '4', status: 'written' }],
      [{ id: '5', status: 'written' }],
    ]);
    expect(sent.map((request) => request.deals.map((deal: { id: string }) => deal.id))).toEqual([['1', 'gone'], ['locked', '4'], ['locked'], ['4'], ['5']]);
    expect(sent[0].deals[0]).toEqual({ id: '1', values: { f_1: 'SEO', f_2: 'Perm' }, fields: [{ id: 'f_1', value: 'SEO' }, { id: 'f_2', value: 'Perm' }] });
  });
});
