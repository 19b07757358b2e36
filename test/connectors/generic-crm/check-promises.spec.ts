import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import connector from '../../../connectors/generic-crm';
import { saveStageCounts } from '../../../connectors/generic-crm/discovery/stage-counts';
import * as amocrm from '../../fixtures/crm/amocrm';
import { startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { typedSettings } from '../read-helper';

/** Issue 38, item 9: what `check` and the stage table promise, against the amoCRM fixture. */
const quiet = { log: () => {}, warn: () => {} };

async function withCrm<T>(crm: ReturnType<typeof amocrm.createCrm>, run: (url: string) => Promise<T>): Promise<T> {
  const server = await startCrmServer(crm.handler);
  try {
    return await run(server.url);
  } finally {
    await server.close();
  }
}

async function check(plain: Record<string, unknown>) {
  const settings = typedSettings(connector, plain);
  return connector.check(settings, { connectionId: 'amo', settings, logger: quiet });
}

describe('check keeps its promises', () => {
  it('names a status_map key that is no stage of the CRM (a typo)', async () => {
    await withCrm(amocrm.createCrm(), async (url) => {
      const result = await check({ ...amocrm.settings(url), status_map: { '99999': '1', '142': '1', '143': '2', '*': '0' } });
      expect(result.ok).toBe(true);
      expect(result.warnings).toEqual([expect.stringMatching(/^status_map key "99999" is no stage of the CRM: no deal is mapped by it \(its stages: 55500, 55501, 55502, 142, 143, 56601;/)]);
    });
  });

  it('says products are left out when the lists are refused, though the sampled deal has no products', async () => {
    const crm = amocrm.createCrm({ withoutCatalogs: 404, pageSize: 1 });
    crm.deleteDeal('7001'); // the first deal read (7002) links no product
    await withCrm(crm, async (url) => {
      const result = await check(amocrm.settings(url));
      expect(result.ok).toBe(true);
      expect(result.message).toMatch(/; products left out: enrichment catalog_elements was refused \(GET \/api\/v4\/catalogs answered HTTP 404: .*\)\. To send them: lists \(catalogs\) come with amoCRM's Extended plan/);
      expect(result.message).not.toMatch(/history left out/);
    });
  });

  it('says nothing is left out when the CRM grants the lists', async () => {
    const crm = amocrm.createCrm({ pageSize: 1 });
    crm.deleteDeal('7001');
    await withCrm(crm, async (url) => {
      const result = await check(amocrm.settings(url));
      expect(result).toMatchObject({ ok: true });
      expect(result.message).not.toMatch(/left out/);
    });
  });

  it('the stage table counts a stage shared by every pipeline once (amoCRM 142, 143)', async () => {
    const workDir = mkdtempSync(join(tmpdir(), 'stage-table-'));
    try {
      await saveStageCounts(workDir, new Map([['142', 10], ['143', 5], ['55501', 6], ['56601', 2]]));
      await withCrm(amocrm.createCrm(), async (url) => {
        const settings = typedSettings(connector, amocrm.settings(url));
        const context = { connectionId: 'amo', settings, logger: quiet, workDir };
        const catalog = await connector.catalog!(settings, context);
        const mapping = connector.stageMapping!(settings, catalog, context);
        expect(mapping.stages.reduce((sum, s) => sum + s.deals_last_run, 0)).toBe(23);
        expect(mapping.stages.filter((s) => s.id === '142')).toEqual([
          { pipeline: 'Продажи, Опт', id: '142', name: 'Успешно реализовано', outcome: 'won', status: '1', deals_last_run: 10 },
        ]);
      });
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
