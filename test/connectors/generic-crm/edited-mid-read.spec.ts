import connector from '../../../connectors/generic-crm';
import * as amocrm from '../../fixtures/crm/amocrm';
import * as bitrix24 from '../../fixtures/crm/bitrix24';
import { FixtureAnswer, FixtureRequest, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { WritableCrm } from '../../fixtures/crm/crm-writes';
import * as hubspot from '../../fixtures/crm/hubspot';
import { readAll } from '../read-helper';

/**
 * A manager edits a deal while a long read is under way: the CRM moves it to the end of its modification-sorted
 * list, and every deal after it moves up one place. A read that pages by offset (amoCRM's `page`, HubSpot's
 * `after`, Bitrix24's `start`) then never sees the deal that slid over the page boundary, and the cursor passes it.
 */
interface Case {
  name: string;
  crm: () => WritableCrm;
  settings: (url: string) => object;
  /** the deals list's answer: the ids of its page */
  dealsPage(request: FixtureRequest, answer: FixtureAnswer): string[] | null;
  /** a first run (no cursor), or a run from a date */
  since: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const amoPage = (request: FixtureRequest, answer: FixtureAnswer) =>
  request.method === 'GET' && request.path === '/api/v4/leads' && answer.body
    ? ((answer.body as any)._embedded.leads as { id: number }[]).map((lead) => String(lead.id))
    : null;
const hubspotPage = (request: FixtureRequest, answer: FixtureAnswer) =>
  request.path === '/crm/v3/objects/deals/search' ? ((answer.body as any).results as { id: string }[]).map((deal) => deal.id) : null;
const bitrixPage = (request: FixtureRequest, answer: FixtureAnswer) =>
  /crm\.item\.list/.test(request.path) && (request.query.get('entityTypeId') ?? request.body?.entityTypeId) == 2
    ? ((answer.body as any).result.items as { id: number }[]).map((item) => String(item.id))
    : null;

const cases: Case[] = [
  { name: 'amoCRM, a first run', crm: () => amocrm.createCrm({ moreDeals: 9 }), settings: amocrm.settings, dealsPage: amoPage, since: null },
  { name: 'amoCRM, a run from a date', crm: () => amocrm.createCrm({ moreDeals: 9 }), settings: amocrm.settings, dealsPage: amoPage, since: new Date('2020-01-01Z') },
  { name: 'HubSpot, a first run', crm: () => hubspot.createCrm({ moreDeals: 4 }), settings: hubspot.settings, dealsPage: hubspotPage, since: null },
  { name: 'HubSpot, a run from a date', crm: () => hubspot.createCrm({ moreDeals: 4 }), settings: hubspot.settings, dealsPage: hubspotPage, since: new Date('2020-01-01Z') },
  // Bitrix24's first read goes by id (keyset): only a run from a date pages by `start`
  { name: 'Bitrix24, a run from a date', crm: () => bitrix24.createCrm({ moreDeals: 9, pageSize: 2 }), settings: bitrix24.settings, dealsPage: bitrixPage, since: new Date('2020-01-01Z') },
];

describe('a deal edited while the deals are read', () => {
  it.each(cases)('$name: every deal is read', async ({ crm: create, settings, dealsPage, since }) => {
    const crm = create();
    let edited: string | null = null;
    const server = await startCrmServer((request, srv) => {
      // what left the CRM before the edit (a fixture may answer with its own records)
      const answer = structuredClone(crm.handler(request, srv));
      const ids = dealsPage(request, answer);
      // after the first page has left the CRM, its first deal is edited
      if (!edited && ids && ids.length > 0) {
        edited = ids[0];
        crm.setVisit(edited, '4242');
      }
      return answer;
    });
    try {
      const { records } = await readAll(connector, 'deals', settings(server.url), { since, connectionId: 'mid-read' });
      expect(edited).not.toBeNull();
      const read = new Set(records.map((record) => record.id));
      const missing = crm.dealIds().filter((id) => !read.has(id));
      expect(missing).toEqual([]);
      // the edited deal is read again, as it is now
      const last = records.filter((record) => record.id === edited).pop() as { visit_id?: string };
      expect(last.visit_id).toBe('4242');
    } finally {
      await server.close();
    }
  });
});

describe('a restarted page steps back a tick', () => {
  const at = (second: number) => `2024-02-01T10:00:${String(second).padStart(2, '0')}.000Z`;
  const deal = (id: number, second: number): hubspot.HubspotObject => ({
    id: String(id),
    properties: { dealname: `D${id}`, amount: '1', dealstage: 'x', createdate: at(0), hs_lastmodifieddate: at(second) },
  });

  it('a CRM whose `from` filter left out its own time still answers the records that share the last one\'s time', async () => {
    // deals 2 and 3 share a time across the boundary of pages of 2
    const handler = hubspot.createHandler({ deals: [deal(1, 1), deal(2, 2), deal(3, 2), deal(4, 3), deal(5, 4)], pageSize: 2 });
    // the filter as if the CRM read GTE as "after": a restart from exactly deal 2's time would never see deal 3
    const server = await startCrmServer((request, srv) => {
      const filter = request.body?.filterGroups?.[0]?.filters?.[0];
      if (filter && filter.value !== '0') filter.value = String(Number(filter.value) + 1);
      return handler(request, srv);
    });
    try {
      const settings = { ...hubspot.settings(server.url), streams: { deals: { enrich: [] } } };
      const { records } = await readAll(connector, 'deals', settings, { connectionId: 'hs-after' });
      expect(records.map((r) => r.id)).toEqual(['1', '2', '3', '4', '5']);
    } finally {
      await server.close();
    }
  });
});
