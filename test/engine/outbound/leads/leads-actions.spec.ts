import type { ConnectorDefinition } from '../../../../src/connectors/connector-definition';
import { CrmActionRefusedError, CrmActions, CrmActionsCapability } from '../../../../src/connectors/crm-actions';
import { LeadRefusedError, UnknownOutcomeError } from '../../../../src/connectors/lead-delivery';
import { checkFlows } from '../../../../src/engine/outbound/flows/flow-checks';
import { LeadCrm } from '../../../../src/engine/outbound/flows/leads/lead-crm';
import { leadsFlow } from '../../../../src/engine/outbound/flows/leads/leads.flow';

/**
 * Lead delivery asks the CRM the one way every flow does (issue 40): named CRM actions. A plugin that serves them in
 * code, with no capability of lead delivery's own, gets lead delivery: its plan, its check, the deal look-up through
 * every page (each page's bare ids read with read_deals, a page at a time), a refused create as the lead's refusal.
 */
const calls: { name: string; variables: Record<string, unknown> }[] = [];

class PluginActions implements CrmActions {
  has = (name: string) => name !== 'link_contact' && name !== 'stages';
  reads = (name: string) => !name.startsWith('create_') && name !== 'add_note';
  setting = (name: string) => `lead_delivery.requests.${name}`;
  async pages(name: string, variables: Record<string, unknown>): Promise<unknown[][]> {
    calls.push({ name, variables });
    // three pages of bare ids: the search matched the term anywhere; read_deals tells each deal's value
    if (name === 'find_deals') return [['1', '2'], ['3', '4'], ['5']];
    return [[await this.run(name, variables)].flat()];
  }
  async run(name: string, variables: Record<string, unknown>): Promise<unknown> {
    if (name === 'find_deals') return (await this.pages(name, variables)).flat();
    calls.push({ name, variables });
    switch (name) {
      case 'deal_fields': return [{ key: 'f_lead', name: 'Proxy lead' }, { key: 'f_visit', name: 'Visit' }];
      case 'pipelines': return [{ id: 'p1', name: 'Sales', main: true, stages: [{ id: 's0', name: 'Unsorted', refused: 'takes none' }, { id: 's1', name: 'New' }] }];
      case 'users': return [{ id: 'u7', name: 'Anna' }];
      case 'read_deals': return (variables.ids as string[]).map((id) => ({ id, value: id === '5' ? '77' : `7${id}0` }));
      case 'create_deal':
        if (variables.title === 'refuse') throw new CrmActionRefusedError('the CRM refused it: HTTP 422: closed stage', 'x', 'HTTP 422: closed stage', 422);
        if (variables.title === 'lost') throw new UnknownOutcomeError('HTTP 502');
        return 'd1';
      default: return [];
    }
  }
}

const capability: CrmActionsCapability<Record<string, unknown>> = {
  block: (settings, key) => (settings[key] ? { ...(settings[key] as object), visit_field: 'Visit' } : null),
  open: () => new PluginActions(),
  flowKeys: () => [],
};
const plugin = { name: 'plugin-crm', settingsClass: Object, streams: () => [], check: async () => ({ ok: true, message: 'ok' }), read: async function* () {}, actions: capability } as unknown as ConnectorDefinition;
const settings = { lead_delivery: { lead_id_field: 'proxy LEAD', responsible: 'anna', duplicates: 'create' } };
const context = { connectionId: 'p1', settings, logger: { log: () => {}, warn: () => {} } };

describe('lead delivery over CRM actions', () => {
  it("plans from the connector's block and checks the targets through the actions (never the stage that takes no deals)", async () => {
    expect(leadsFlow.planOf(plugin, settings)).toMatchObject({ leadIdField: 'proxy LEAD', visitField: 'Visit', duplicates: 'create', responsible: 'anna', schedule: '* * * * *' });
    expect(leadsFlow.planOf(plugin, {})).toBeNull();
    expect(await checkFlows(plugin, settings, context)).toEqual({ ok: true, message: 'lead_delivery: pipeline "Sales" (p1), stage "New" (s1), responsible "Anna" (u7), lead_id_field f_lead' });
  });

  it('finds a deal through every page, reading each page of bare ids on its own; a refused create is the lead\'s refusal', async () => {
    const crm = await new LeadCrm(new PluginActions(), leadsFlow.planOf(plugin, settings)!, 'connection p1').resolve();
    calls.length = 0;
    expect(await crm.findDeals('77')).toEqual(['5']);
    expect(calls.filter((c) => c.name === 'read_deals').map((c) => c.variables.ids)).toEqual([['1', '2'], ['3', '4'], ['5']]);
    const deal = { leadId: '77', visitId: 'v9', title: 'refuse', fields: {}, contactId: null };
    await expect(crm.createDeal(deal)).rejects.toEqual(new LeadRefusedError('the CRM refused the deal: HTTP 422: closed stage', 'lead_delivery.requests.create_deal'));
    await expect(crm.createDeal({ ...deal, title: 'lost' })).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(await crm.createDeal({ ...deal, title: 'ok' })).toBe('d1');
    expect(calls[calls.length - 1].variables.fields).toEqual({ f_visit: 'v9', f_lead: '77' });
  });
});
