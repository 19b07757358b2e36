import connector from '../../../connectors/generic-crm';
import { CrmServer, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import * as hubspot from '../../fixtures/crm/hubspot';
import { readAll } from '../read-helper';

describe('generic-crm preset hubspot', () => {
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(hubspot.handler)));
  afterAll(async () => {
    await crm.close();
  });

  it.each(['managers', 'clients', 'deals'] as const)('reads %s field by field', async (stream) => {
    const { records, rejected } = await readAll(connector, stream, hubspot.settings(crm.url));
    expect(rejected).toEqual([]);
    expect(records).toEqual(hubspot.expected[stream]);
  });

  it('searches modified since the cursor (epoch ms), asks for the visit field, and fetches associations per page', async () => {
    crm.requests.length = 0;
    const since = new Date('2024-01-15T11:30:00Z');
    const { records } = await readAll(connector, 'deals', hubspot.settings(crm.url), { since });
    expect(records.map((r) => r.id)).toEqual(['802', '803']);
    const searches = crm.requests.filter((r) => r.path.endsWith('/deals/search'));
    expect(searches[0].body.filterGroups[0].filters[0].value).toBe(String(since.getTime()));
    expect(searches[0].body.properties).toContain('tracker');
    expect(searches[0].body.limit).toBe(100);
    const batches = crm.requests.filter((r) => r.path.includes('/associations/deals/contacts'));
    expect(batches.map((r) => r.body)).toEqual([{ inputs: [{ id: '802' }, { id: '803' }] }]);
  });

  describe('the search cap', () => {
    const time = (minute: number) => `2024-02-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const deal = (id: number, minute: number): hubspot.HubspotObject => ({
      id: String(id),
      properties: { dealname: `D${id}`, amount: '1', dealstage: 'x', createdate: time(0), hs_lastmodifieddate: time(minute) },
    });
    const capped = () => ({
      ...hubspot.settings(''),
      // the cap alone: no restart after each page
      streams: { deals: { paginator: { reslice_at: 4, reslice_each_page: false }, enrich: [] } },
    });

    it('re-slices on the last modification time when `after` would reach the cap, without duplicates or losses', async () => {
      const list = [deal(1, 1), deal(2, 2), deal(3, 3), deal(4, 4), deal(5, 4), deal(6, 5), deal(7, 6), deal(8, 7)];
      const server = await startCrmServer(hubspot.createHandler({ deals: list, searchCap: 4, pageSize: 2 }));
      try {
        const { records } = await readAll(connector, 'deals', { ...capped(), base_url: server.url }, { connectionId: 'hs-cap' });
        expect(records.map((r) => r.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
        const afters = server.requests.map((r) => `${r.body.filterGroups[0].filters[0].value}@${r.body.after ?? 0}`);
        // each restart a millisecond before the last modification time read
        expect(afters).toEqual(['0@0', '0@2', `${Date.parse(time(4)) - 1}@0`, `${Date.parse(time(4)) - 1}@2`, `${Date.parse(time(6)) - 1}@0`]);
      } finally {
        await server.close();
      }
    });

    it('fails clearly when more records than the cap share one modification time', async () => {
      const list = [1, 2, 3, 4, 5, 6].map((id) => deal(id, 9));
      const server = await startCrmServer(hubspot.createHandler({ deals: list, searchCap: 4, pageSize: 2 }));
      try {
        const read = readAll(connector, 'deals', { ...capped(), base_url: server.url }, { connectionId: 'hs-same' });
        await expect(read).rejects.toThrow(/connection hs-same, stream deals: more than 4 records share the modification time/);
      } finally {
        await server.close();
      }
    });
  });
});
