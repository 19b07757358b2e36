/**
 * The shared request budget as the operator sees it, in the real daemon (embedded sandbox, SQLite store):
 * GET /api/budget (the status page's "waiting on the budget" block) and /metrics, while a run waits for an hour
 * already spent (tracker.rate_limit per_hour 3; the demo's managers alone need 10 requests).
 */
import { join } from 'node:path';
import { existsSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { api, RunningDaemon, startDaemon, tempDir } from '../daemon/daemon-harness';

const TOKEN = 'budget-page-test-token';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CHROMIUM = '/usr/bin/chromium';
/** the page in headless Chromium (as status-page.spec.ts); a machine without it skips that test, CI does not */
const inBrowser = existsSync(CHROMIUM) || process.env.CI ? it : it.skip;

describe('request budget on the status page and /metrics', () => {
  const dir = tempDir('budget-page');
  let running: RunningDaemon;

  beforeAll(async () => {
    const demo = join(__dirname, '..', '..', 'config', 'demo');
    const config = join(dir.path, 'tracker-sync.yaml');
    writeFileSync(config, [
      `data_dir: ${JSON.stringify(join(dir.path, 'data'))}`,
      'tracker: { rate_limit: { per_second: 50, per_hour: 3 } }',
      'sandbox: { budget: off }',
      'connections:',
      '  - id: demo',
      '    connector: spreadsheet',
      '    run_on_start: true',
      '    settings:',
      `      deals: { path: ${JSON.stringify(join(demo, 'deals.csv'))} }`,
      `      clients: { path: ${JSON.stringify(join(demo, 'clients.csv'))} }`,
      `      managers: { path: ${JSON.stringify(join(demo, 'managers.csv'))} }`,
      '',
    ].join('\n'));
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'error' }, config);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  it('shows the requests waiting, the hour left and the time spent waiting', async () => {
    type Budget = { enabled: boolean; waiting: number; waiting_since: string | null; longest_wait_seconds: number; remaining: { hour: number } | null; per_hour: number };
    let budget: Budget | undefined;
    // a stall: a request that has waited for half a second (the first ones wait only for their turn)
    const stalled = (b?: Budget) => (b?.longest_wait_seconds ?? 0) > 0.5;
    for (const until = Date.now() + 20_000; !stalled(budget); await sleep(100)) {
      if (Date.now() > until) throw new Error(`no request waited for the budget: ${JSON.stringify(budget)}`);
      const res = await api<Budget>(running.url, TOKEN, '/api/budget');
      expect(res.status).toBe(200);
      budget = res.body;
    }
    expect(budget).toMatchObject({ enabled: true, per_hour: 3, remaining: { hour: 0 } });
    expect(budget!.waiting).toBeGreaterThanOrEqual(1);
    expect(Date.parse(budget!.waiting_since!)).toBeLessThan(Date.now() - 500);
    await sleep(300);

    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(/^tracker_sync_budget_remaining\{window="hour"\} 0$/m);
    expect(Number(/^tracker_sync_budget_waiting_requests (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^tracker_sync_budget_wait_seconds_total ([\d.e-]+)/m.exec(metrics)?.[1])).toBeGreaterThan(0.2);

    expect((await api(running.url, null, '/api/budget')).status).toBe(401);
    const page = await (await fetch(`${running.url}/`)).text();
    expect(page).toContain('id="budget-block"');
    expect(page).toContain("api('GET', '/api/budget')");
  });

  inBrowser(`shows the 'Waiting on the request budget' block on the status page (needs ${CHROMIUM})`, async () => {
    const profile = tempDir('budget-chromium');
    const context = await chromium.launchPersistentContext(profile.path, {
      executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(running.url + '/');
      await page.locator('#token').fill(TOKEN);
      await page.locator('#login-form button[type=submit]').click();
      await page.locator('#budget-block').waitFor({ state: 'visible', timeout: 15_000 });
      const text = await page.locator('#budget-text').textContent();
      expect(text).toMatch(/^\d+ requests? waiting since .+ · left this hour: 0 of 3 · pace 50\/s$/);
    } finally {
      await context.close();
      profile.remove();
    }
  }, 30_000);
});
