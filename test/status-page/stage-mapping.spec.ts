/**
 * A generic-crm connection's stage mapping as the operator sees it, in the real daemon (embedded sandbox, SQLite
 * store, an amoCRM-shaped fixture on loopback): GET /api/connections/{id}/discover (the same JSON as
 * `cli discover --json`), GET …/stage-mapping and the status page's "Stage mapping" block, where a stage
 * status_map leaves out is flagged with the deals of the last run in it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { stringify } from 'yaml';
import type { StageMapping } from '../../src/connectors/connector-definition';
import { runCliInProcess } from '../cli/cli-harness';
import { api, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm } from '../fixtures/crm/setup';

const TOKEN = 'stage-mapping-page-token';
const CHROMIUM = '/usr/bin/chromium';
const inBrowser = existsSync(CHROMIUM) || process.env.CI ? it : it.skip;
/** the proposal without the wholesale pipeline's only open stage */
const STATUS_MAP = { '61001': '0', '61002': '0', '142': '1', '143': '2' };

describe('stage mapping: admin API and status page', () => {
  const dir = tempDir('stage-mapping');
  const config = join(dir.path, 'tracker-sync.yaml');
  let crm: CrmServer;
  let running: RunningDaemon | undefined;
  let discovered: unknown;

  beforeAll(async () => {
    crm = await startCrmServer(amocrm.handler);
    writeFileSync(config, stringify({
      data_dir: join(dir.path, 'data'),
      sandbox: { seed: 'demo', budget: 'off' },
      connections: [
        { id: 'amo', connector: 'generic-crm', run_on_start: true, settings: { ...amocrm.settings(crm.url), status_map: STATUS_MAP, visit_field: '580001' } },
        { id: 'amo-register', connector: 'generic-crm', statuses: 'register', settings: { ...amocrm.settings(crm.url), visit_field: '580001' } },
      ],
    }));
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'error' }, config);
    const run = await waitForFinishedRun(running.url, TOKEN, 'amo');
    expect(run.status).toBe('succeeded');
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    await crm?.close();
    dir.remove();
  });

  it('GET …/stage-mapping: each stage with what it is sent as; the uncovered one null, with its deals of the last run', async () => {
    const { status, body } = await api<StageMapping>(running!.url, TOKEN, '/api/connections/amo/stage-mapping');
    expect(status).toBe(200);
    expect(body.stages.map((s) => [s.pipeline, s.id, s.outcome, s.status, s.deals_last_run])).toEqual([
      ['Продажи', '61001', 'open', '0', 0], ['Продажи', '61002', 'open', '0', 1], ['Продажи, Опт', '142', 'won', '1', 2], ['Продажи, Опт', '143', 'lost', '2', 1],
      ['Опт', '62001', 'open', null, 1],
    ]);
    // amoCRM's won and lost stages are one stage in every pipeline: the column sums to the deals read
    expect(body.stages.reduce((sum, s) => sum + s.deals_last_run, 0)).toBe(5);
    expect(body.last_run?.deals).toEqual({ '142': 2, '143': 1, '61002': 1, '62001': 1 });
    expect((await api(running!.url, null, '/api/connections/amo/stage-mapping')).status).toBe(401);
  });

  it('with statuses: register every stage is sent as itself (registered in the project), none uncovered', async () => {
    const { status, body } = await api<StageMapping>(running!.url, TOKEN, '/api/connections/amo-register/stage-mapping');
    expect(status).toBe(200);
    expect(body.statuses).toBe('register');
    expect(body.stages.map((s) => [s.pipeline, s.id, s.status])).toEqual([
      ['Продажи', '61001', '61001'], ['Продажи', '61002', '61002'], ['Продажи, Опт', '142', '142'], ['Продажи, Опт', '143', '143'],
      ['Опт', '62001', '62001'],
    ]);
    expect((await api<StageMapping>(running!.url, TOKEN, '/api/connections/amo/stage-mapping')).body.statuses).toBe('map');
  });

  it('GET …/discover answers the catalog and the proposal (which covers the missing stage)', async () => {
    const { status, body } = await api<Record<string, unknown>>(running!.url, TOKEN, '/api/connections/amo/discover');
    expect(status).toBe(200);
    expect(body).toMatchObject({ ...amocrm.catalog, proposed: { status_map: { ...STATUS_MAP, '62001': '0' }, visit_field: '580001' } });
    expect(JSON.stringify(body)).not.toContain((amocrm.settings('') as { token: string }).token);
    discovered = body;
  });

  inBrowser(`flags the uncovered stage on the status page (needs ${CHROMIUM})`, async () => {
    const profile = tempDir('stage-mapping-chromium');
    const context = await chromium.launchPersistentContext(profile.path, {
      executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(running!.url + '/');
      await page.locator('#token').fill(TOKEN);
      await page.locator('#login-form button[type=submit]').click();
      await page.locator('#stages-block').waitFor({ state: 'visible', timeout: 15_000 });
      expect(await page.locator('#stages-text').textContent()).toBe('1 stage not covered by status_map, 1 deal(s) of the last run in them.');
      const row = page.locator('#stages tr.uncovered');
      expect(await row.count()).toBe(1);
      expect(await row.getAttribute('data-stage')).toBe('62001');
      expect(await row.textContent()).toContain('not covered: sent as "62001"');
      expect(await page.locator('#stages tbody tr').count()).toBe(5); // 142 and 143 once, for both pipelines
      await page.screenshot({ path: '/tmp/status-page-stage-mapping.png', fullPage: true });
    } finally {
      await context.close();
      profile.remove();
    }
  }, 30_000);

  it('`cli discover --json` prints the same JSON as the API', async () => {
    await running!.stop();
    running = undefined;
    const answer = await runCliInProcess(['discover', 'amo', '--json', '--config', config]);
    expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(answer.stdout)).toEqual(discovered);
  });
});
