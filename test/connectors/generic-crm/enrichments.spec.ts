import connector, { clauses } from '../../../connectors/generic-crm';
import { refusalAnswer } from '../../../connectors/generic-crm/records/enricher';
import { toSettingsInstance } from '../../../src/connectors/settings-validation';
import * as amocrm from '../../fixtures/crm/amocrm';
import * as bitrix24 from '../../fixtures/crm/bitrix24';
import { startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import * as hubspot from '../../fixtures/crm/hubspot';
import { customSettings, item } from './custom-source';
import { readAll } from '../read-helper';

/**
 * Enrichments (`streams.<name>.enrich[]`): batched sub-requests per page joined back to their record; features a
 * connection switches off cost no request; a feature the CRM refuses is left out with one warning per read (and
 * named by `check`) while the deals still go.
 */

const withoutProducts = ({ products, ...deal }: hubspot.HubspotObject & Record<string, unknown>) => (void products, deal);

describe('generic-crm enrichments', () => {
  it('batch the page ids, page through each batch, map each fetched record and join it back by its key', async () => {
    const rows = [
      { deal: 1, sku: 'a', price: '10' }, { deal: 2, sku: 'b', price: '20' }, { deal: 1, sku: 'c', price: '30' }, { deal: 3, sku: 'd', price: '40' },
    ];
    const server = await startCrmServer((request) => {
      if (request.path === '/deals') return { body: { items: [item(1), item(2), item(3)] } };
      const ids = request.query.getAll('deal').map(Number);
      const page = Number(request.query.get('page') ?? '1');
      const found = rows.filter((row) => ids.includes(row.deal)).slice(page - 1, page);
      return { body: { rows: found } };
    });
    try {
      const settings = customSettings(server.url, {
        enrich: [{
          name: 'rows', feature: 'products', request: { path: '/rows', query: { deal: '{{ids}}' } }, records: 'rows', match: 'deal',
          batch_size: 2, paginator: { type: 'page_number', page_size: 1, size_param: 'size' },
          mapping: { id: 'sku', price: '=$number(price)' },
        }],
        mapping: { id: 'id', created_at: 'created', products: '=_related.rows.{ "id": id, "name": id, "price": price }' },
      });
      const { records } = await readAll(connector, 'deals', settings);
      expect(records.map((r) => [r.id, (r as { products?: { id: string; price: number }[] }).products?.map((p) => `${p.id}:${p.price}`)])).toEqual([
        ['1', ['a:10', 'c:30']], ['2', ['b:20']], ['3', ['d:40']],
      ]);
      const subRequests = server.requests.filter((r) => r.path === '/rows').map((r) => `${r.query.getAll('deal').join(',')}@${r.query.get('page')}`);
      // two batches (ids 1,2 and 3), each paged until a short page
      expect(subRequests).toEqual(['1,2@1', '1,2@2', '1,2@3', '1,2@4', '3@1', '3@2']);
    } finally {
      await server.close();
    }
  });

  it('`products: false` / `history: false` skip those enrichments: no request, no products or history', async () => {
    const server = await startCrmServer(hubspot.handler);
    try {
      const { records } = await readAll(connector, 'deals', { ...hubspot.settings(server.url), products: false, history: false });
      expect(records.map((r) => [r.id, 'products' in r, 'history' in r])).toEqual([['801', false, false], ['802', false, false], ['803', false, false]]);
      expect(server.requests.filter((r) => /line_items|batch\/read$/.test(r.path) && !r.path.includes('contacts'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a token without the line items scope: products left out with one warning naming the scope, history and deals still read', async () => {
    const server = await startCrmServer(hubspot.createHandler({ refuseProducts: true }));
    try {
      const { records, logs } = await readAll(connector, 'deals', hubspot.settings(server.url));
      expect(records).toEqual(hubspot.expected.deals.map((deal) => withoutProducts(deal as never)));
      const warnings = logs.filter((line) => line.includes('left out'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/products left out: enrichment line_item_links was refused \(POST \/crm\/v4\/associations\/deals\/line_items\/batch\/read answered .*HTTP 403/);
      expect(warnings[0]).toMatch(/crm\.objects\.line_items\.read/);
      expect(warnings[0]).not.toMatch(/credentials/); // the token reads the deals: only this endpoint refuses it
      // refused once: not asked again for the second page
      expect(server.requests.filter((r) => r.path.includes('line_items'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('check says what is left out and how to grant it, and stays ok (the deals go)', async () => {
    const server = await startCrmServer(hubspot.createHandler({ refuseProducts: true }));
    try {
      const settings = toSettingsInstance(connector.settingsClass, hubspot.settings(server.url));
      const quiet = { log: () => {}, warn: () => {} };
      const result = await connector.check(settings, { connectionId: 'hs', settings, logger: quiet });
      expect(result.ok).toBe(true);
      expect(result.message).toMatch(/answered the managers request; products left out: .*crm\.objects\.line_items\.read/);
      expect(result.message).not.toMatch(/\.;|\.$/);
    } finally {
      await server.close();
    }
  });

  it('an amoCRM account without lists (402): products left out, the stage history still read', async () => {
    const server = await startCrmServer(amocrm.createCrm({ withoutCatalogs: true }).handler);
    try {
      const { records, logs } = await readAll(connector, 'deals', amocrm.settings(server.url));
      expect(records.map((r) => [r.id, 'products' in r, 'history' in r])).toEqual([
        ['7001', false, true], ['7002', false, true], ['7003', false, false], ['7004', false, false],
      ]);
      expect(logs.filter((line) => line.includes('left out'))).toEqual([expect.stringMatching(/products left out: .*HTTP 402.*Extended plan/)]);
    } finally {
      await server.close();
    }
  });

  it('a Bitrix24 webhook without the catalog scope: insufficient_scope inside batch leaves the products out', async () => {
    const server = await startCrmServer(bitrix24.createHandler({ refuseCatalog: true }));
    try {
      const { records, logs } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect(records.map((r) => [r.id, 'products' in r, 'history' in r])).toEqual([['201', false, true], ['202', false, true], ['203', false, true]]);
      expect(logs.filter((line) => line.includes('left out'))).toEqual([expect.stringMatching(/products left out: .*insufficient_scope.*catalog scope/)]);
    } finally {
      await server.close();
    }
  });

  it('incremental.recheck_days reaches the window back that many days before the run (never forward)', async () => {
    const server = await startCrmServer(amocrm.handler);
    try {
      const until = new Date('2024-01-20T00:00:00Z');
      const froms: (string | null)[] = [];
      for (const since of [new Date('2024-01-19T12:00:00Z'), new Date('2024-01-10T00:00:00Z')]) {
        server.requests.length = 0;
        await readAll(connector, 'deals', amocrm.settings(server.url), { since, until });
        froms.push(server.requests.find((r) => r.path === '/api/v4/leads')!.query.get('filter[updated_at][from]'));
      }
      expect(froms).toEqual([String(Date.parse('2024-01-19T00:00:00Z') / 1000), String(Date.parse('2024-01-10T00:00:00Z') / 1000)]);
    } finally {
      await server.close();
    }
  });
});

describe('generic-crm enrichments: Bitrix24 product rows beyond one page', () => {
  it('a deal of 120 rows: the next batches ask only that deal for its next rows (start 50, 100), every row is read', async () => {
    const crm = bitrix24.createCrm();
    for (let i = 0; i < 119; i++) crm.addProduct!('203');
    const server = await startCrmServer(crm.handler);
    try {
      const { records, rejected, logs } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect({ rejected, logs: logs.filter((l) => l.includes('left out')) }).toEqual({ rejected: [], logs: [] });
      const deal = records.find((r) => r.id === '203') as { products?: unknown[] };
      expect(deal.products).toHaveLength(120);
      expect((records.find((r) => r.id === '201') as { products?: unknown[] }).products).toHaveLength(2);
      const rowBatches = server.requests
        .filter((r) => r.path.endsWith('/batch.json') && String(Object.values(r.body.cmd)[0]).startsWith('crm.item.productrow.list'))
        .map((r) => Object.entries(r.body.cmd as Record<string, string>).map(([key, command]) => `${key}${/start=(\d+)/.exec(command)?.[0] ?? ''}`).join(' '));
      // the first read's one page of 50 (by id, start=-1) holds the three deals
      expect(rowBatches).toEqual(['d201 d202 d203', 'd203start=50', 'd203start=100']);
    } finally {
      await server.close();
    }
  });
});

describe('generic-crm: the wording of refusals and of check', () => {
  it("a refused enrichment's answer in parentheses keeps one closing parenthesis", () => {
    const notServed = 'the CRM does not serve `GET /api/v4/catalogs`: the preset may target an API version it no longer has (HTTP 404: {"title":"Not found"})';
    expect(refusalAnswer(notServed)).toBe('HTTP 404: {"title":"Not found"}');
    expect(refusalAnswer('HTTP 402: {"detail":"Payment Required (plan)"}')).toBe('HTTP 402: {"detail":"Payment Required (plan)"}');
  });

  it("check's parts are joined without a full stop before the semicolon", () => {
    expect(clauses(['x answered; products left out: … The deals are sent without history.', 'lead_delivery: pipeline ok']))
      .toBe('x answered; products left out: … The deals are sent without history; lead_delivery: pipeline ok');
  });
});
