import connector from '../../../connectors/generic-crm';
import { checkConnection } from '../../../src/engine/outbound/flows/flow-checks';
import { loadPreset } from '../../../connectors/generic-crm/definition/presets';
import { toSettingsInstance } from '../../../src/connectors/settings-validation';
import * as bitrix24 from '../../fixtures/crm/bitrix24';
import { CrmServer, FixtureHandler, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll } from '../read-helper';

/**
 * The limits Bitrix24 documents (test/fixtures/crm/specs/bitrix24/BEHAVIOURS.md): a batch command's error is its
 * deal's problem alone, a refusal of the method leaves the feature out with advice that fits the cause, user.get
 * answers 50 a page, OPERATION_TIME_LIMIT waits for operating_reset_at, ties of updatedTime are broken by id.
 */

type WithFeatures = { id: string; products?: unknown[]; history?: unknown[] };
const features = (records: unknown[]) => (records as WithFeatures[]).map((r) => [r.id, r.products?.length ?? null, r.history?.length ?? null]);

async function withServer<T>(crm: { handler: FixtureHandler }, run: (server: CrmServer) => Promise<T>): Promise<T> {
  const server = await startCrmServer(crm.handler);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

describe('Bitrix24 batch: one bad command leaves out its deal alone', () => {
  it('a catalog product deleted since the deal was saved (code 0): that deal goes without products, named in a warning; the others keep theirs', async () => {
    const crm = bitrix24.createCrm();
    crm.deleteCatalogProduct(501);
    await withServer(crm, async (server) => {
      const { records, rejected, logs } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect(rejected).toEqual([]);
      // 201 had product 501: no products for it alone; 203's product (502) and every history are read
      expect(features(records)).toEqual([['201', null, 3], ['202', null, 1], ['203', 1, 2]]);
      const warnings = logs.filter((l) => l.includes('left out'));
      expect(warnings).toEqual([expect.stringMatching(/deal 201: products left out for it alone: enrichment catalog_products: command p501 .*"error":0.*Product does not exist/)]);
      expect(warnings[0]).not.toMatch(/scope/);
    });
  });

  it('a deal deleted between the list and the batch (ACCESS_DENIED on its command only): the other deals keep their products', async () => {
    const crm = bitrix24.createCrm({ deleteAfterList: [201], pageSize: 50 });
    await withServer(crm, async (server) => {
      const { records, logs } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect(features(records)).toEqual([['201', null, 3], ['202', null, 1], ['203', 1, 2]]);
      expect(logs.filter((l) => l.includes('left out'))).toEqual([expect.stringMatching(/deal 201: products left out for it alone: enrichment product_rows: command d201 .*ACCESS_DENIED/)]);
    });
  });

  it('commands beyond 50 in one batch answer ERROR_BATCH_LENGTH_EXCEEDED (HTTP 200): only those deals go without products', async () => {
    // a configuration that asks 60 deals' rows in one batch (the preset asks 50)
    const preset = loadPreset('bitrix24') as { streams: { deals: { enrich: { name: string; batch_size?: number }[] } } };
    const enrich = preset.streams.deals.enrich.map((entry) => (entry.name === 'product_rows' ? { ...entry, batch_size: 60 } : entry));
    const crm = bitrix24.createCrm({ moreDeals: 60, richDeals: true, pageSize: 70 });
    await withServer(crm, async (server) => {
      // an incremental read (pages of `start`, 70 here) brings the 63 deals in one page
      const since = new Date('2024-01-01T00:00:00Z');
      const { records, logs } = await readAll(connector, 'deals', { ...bitrix24.settings(server.url), streams: { deals: { enrich } } }, { connectionId: 'b24', since });
      expect(records).toHaveLength(63);
      const without = (records as WithFeatures[]).filter((r) => r.products === undefined && r.id !== '202').map((r) => r.id);
      expect(without).toHaveLength(10);
      const warned = logs.filter((l) => l.includes('ERROR_BATCH_LENGTH_EXCEEDED')).map((l) => /deal (\d+)/.exec(l)?.[1]);
      expect(warned.sort()).toEqual([...without].sort());
      expect(logs.some((l) => / products left out: enrichment/.test(l))).toBe(false); // never for the whole read
      const batchAnswers = server.requests.filter((r) => r.path.endsWith('/batch.json'));
      expect(batchAnswers.length).toBeGreaterThan(0);
    });
  });
});

describe('Bitrix24 batch: a refusal of the method leaves the feature out, with advice that fits the cause', () => {
  it('no right to the trade catalog (200040300010 on every command): products left out for the read, "read access to the trade catalog", not "add the catalog scope"', async () => {
    await withServer(bitrix24.createCrm({ refuseCatalogRight: true }), async (server) => {
      const { records, logs } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect(features(records)).toEqual([['201', null, 3], ['202', null, 1], ['203', null, 2]]);
      const warnings = logs.filter((l) => l.includes('left out'));
      expect(warnings).toEqual([expect.stringMatching(/products left out: enrichment catalog_products was refused .*200040300010.*read access to the trade catalog/)]);
      expect(warnings[0]).not.toMatch(/catalog scope/);
    });
  });

  it('no catalog scope (insufficient_scope): "add the catalog scope"', async () => {
    await withServer(bitrix24.createCrm({ refuseCatalog: true }), async (server) => {
      const { logs } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect(logs.filter((l) => l.includes('left out'))).toEqual([expect.stringMatching(/products left out: .*insufficient_scope.*add the catalog scope/)]);
    });
  });
});

describe('Bitrix24 user.get: 50 users a page', () => {
  const responsibleOnPage3 = { pipeline: 'Общая', stage: 'Новая', responsible: 'Менеджер 117 Тестов', lead_id_field: 'ID заявки' };

  it('managers: a portal of 120 users is read in pages of 50 (start 0, 50, 100)', async () => {
    await withServer(bitrix24.createCrm({ moreUsers: 117 }), async (server) => {
      const { records } = await readAll(connector, 'managers', bitrix24.settings(server.url));
      expect(records).toHaveLength(120);
      expect(server.requests.filter((r) => r.path.endsWith('user.get.json')).map((r) => r.query.get('start'))).toEqual([null, '50', '100']);
    });
  });

  it('lead_delivery.responsible finds a user past the first page (user 217 of 120)', async () => {
    await withServer(bitrix24.createCrm({ moreUsers: 117 }), async (server) => {
      const plain = { ...bitrix24.settings(server.url), lead_delivery: responsibleOnPage3 };
      const settings = toSettingsInstance(connector.settingsClass, plain);
      const quiet = { log: () => {}, warn: () => {} };
      const result = await checkConnection(connector, settings, { connectionId: 'b24', settings, logger: quiet });
      expect(result.message).not.toMatch(/no user/);
      expect(result.ok).toBe(true);
      // one request for every page
      expect(server.requests.filter((r) => /user\.get|batch/.test(r.path) && JSON.stringify(r.body ?? {}).includes('user.get'))).toHaveLength(1);
    });
  });

  it('lead_delivery.responsible: a webhook without the user scope is told so, not "no user"', async () => {
    const crm = bitrix24.createCrm();
    const refusing: FixtureHandler = (request, server) => {
      const commands = Object.keys((request.body?.cmd ?? {}) as Record<string, string>);
      if (!request.path.endsWith('/batch.json') || !String(Object.values(request.body?.cmd ?? {})[0]).startsWith('user.get')) return crm.handler(request, server);
      const denied = Object.fromEntries(commands.map((key) => [key, { error: 'insufficient_scope', error_description: '' }]));
      return { body: { result: { result: [], result_error: denied, result_total: [], result_next: [], result_time: [] } } };
    };
    await withServer({ handler: refusing }, async (server) => {
      const plain = { ...bitrix24.settings(server.url), lead_delivery: responsibleOnPage3 };
      const settings = toSettingsInstance(connector.settingsClass, plain);
      const result = await checkConnection(connector, settings, { connectionId: 'b24', settings, logger: { log: () => {}, warn: () => {} } });
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/user\.get answered .*insufficient_scope/);
      expect(result.message).not.toMatch(/no user/);
    });
  });

  it('discover lists all 120 users', async () => {
    await withServer(bitrix24.createCrm({ moreUsers: 117 }), async (server) => {
      const settings = toSettingsInstance(connector.settingsClass, bitrix24.settings(server.url));
      const catalog = await connector.catalog!(settings, { connectionId: 'b24', settings, logger: { log: () => {}, warn: () => {} } });
      expect(catalog.users).toHaveLength(120);
    });
  });
});

describe('Bitrix24 OPERATION_TIME_LIMIT', () => {
  it('a 429 OPERATION_TIME_LIMIT waits until operating_reset_at of the last successful answer, then reads on', async () => {
    const crm = bitrix24.createCrm({ operationTimeLimit: { method: 'crm.item.list', afterCalls: 1, resetInMs: 1500 } });
    await withServer(crm, async (server) => {
      const started = Date.now();
      // an incremental read: pages of 2 by `start`
      const { records } = await readAll(connector, 'deals', bitrix24.settings(server.url), { since: new Date('2024-01-01T00:00:00Z') });
      expect(records.map((r) => r.id)).toEqual(['201', '202', '203']);
      const lists = server.requests.filter((r) => r.path.endsWith('crm.item.list.json'));
      // page 1, page 2 blocked once, page 2 after the reset: no burst of quick retries
      expect(lists).toHaveLength(3);
      expect(lists[2].at - lists[1].at).toBeGreaterThanOrEqual(400);
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });

  it('a command blocked inside batch (OPERATION_TIME_LIMIT in result_error, HTTP 200): the batch is sent again (backing off) until the method is free, no deal loses its products', async () => {
    const crm = bitrix24.createCrm({ operationTimeLimit: { method: 'crm.item.productrow.list', afterCalls: 2, resetInMs: 1500 } });
    await withServer(crm, async (server) => {
      const { records, logs } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect(features(records)).toEqual([['201', 2, 3], ['202', null, 1], ['203', 1, 2]]);
      expect(logs.filter((l) => l.includes('left out'))).toEqual([]);
      const rowBatches = server.requests.filter((r) => r.path.endsWith('/batch.json') && String(Object.values(r.body.cmd)[0]).startsWith('crm.item.productrow.list'));
      // the batch answer names no reset time (a batch is not accounted): backed off (base_ms 5 here) past the reset
      expect(rowBatches.length).toBeGreaterThanOrEqual(2);
      expect(rowBatches[rowBatches.length - 1].at - rowBatches[0].at).toBeGreaterThanOrEqual(1000);
    });
  });
});

describe('Bitrix24 large reads: updatedTime ties', () => {
  it('deals of one updatedTime are ordered by id too, so pages of `start` neither repeat nor skip one', async () => {
    // nine deals saved in one second (an import): the portal orders such ties as it likes unless told `order[id]`
    await withServer(bitrix24.createCrm({ moreDeals: 9, sameUpdatedTime: '2024-01-17T09:00:00+03:00' }), async (server) => {
      const { records } = await readAll(connector, 'deals', bitrix24.settings(server.url), { since: new Date('2024-01-01T00:00:00Z') });
      const ids = records.map((r) => r.id);
      expect(ids.slice(3).sort()).toEqual(Array.from({ length: 9 }, (_, i) => String(1201 + i)));
      expect(server.requests.find((r) => r.path.endsWith('crm.item.list.json'))!.query.get('order[id]')).toBe('ASC');
    });
  });
});

describe('Bitrix24 large reads: the first read by id (huge-data.md)', () => {
  it('a deal deleted mid-read shifts no page: `filter[>id]` of the last id, `order[id]`, `start=-1`, every other deal read', async () => {
    // pages of 50 either way; deal 201 goes after the first page was answered
    await withServer(bitrix24.createCrm({ moreDeals: 60, pageSize: 50, deleteAfterList: [201] }), async (server) => {
      const { records } = await readAll(connector, 'deals', bitrix24.settings(server.url));
      expect(records).toHaveLength(63);
      const lists = server.requests.filter((r) => r.path.endsWith('crm.item.list.json'));
      expect(lists.map((r) => [r.query.get('start'), r.query.get('filter[>id]'), r.query.get('order[id]'), r.query.get('order[updatedTime]')])).toEqual([
        ['-1', null, 'ASC', null], ['-1', '1247', 'ASC', null],
      ]);
    });
  });

  it('a later read pages by `start` over updatedTime (then id) from the cursor', async () => {
    await withServer(bitrix24.createCrm(), async (server) => {
      await readAll(connector, 'deals', bitrix24.settings(server.url), { since: new Date('2024-01-15T11:30:00Z') });
      const list = server.requests.find((r) => r.path.endsWith('crm.item.list.json'))!;
      expect([list.query.get('start'), list.query.get('order[updatedTime]'), list.query.get('order[id]'), list.query.get('filter[>id]')]).toEqual([null, 'ASC', 'ASC', null]);
    });
  });
});
