/**
 * An alert whose receiver refuses it (HTTP 400: no attempt can help), in the real daemon: GET /api/alerts does not
 * count it as sent (`last_sent_at` stays empty, `delivery` failed, a `retry_at`), and the status page (headless
 * Chromium, as status-page.spec.ts) shows the condition as not delivered and the message in a block of its own.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, BrowserContext, Locator, Page } from 'playwright-core';
import { api, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';
import { HttpReceiver } from '../support/alert-receivers';

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'alert-deliveries-page-token';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** the page in headless Chromium; a machine without it skips that test, CI does not */
const inBrowser = existsSync(CHROMIUM) || process.env.CI ? it : it.skip;

interface AlertsJson {
  active: { connection_id: string; event: string; last_sent_at: string; delivery: string; delivery_failures: number; retry_at: string | null; last_error: string | null }[];
  deliveries: { event: string; status: string; attempts: number; last_error: string | null }[];
}

describe('an alert that could not be delivered', () => {
  const dir = tempDir('alert-deliveries');
  const profile = tempDir('alert-deliveries-chromium');
  const receiver = new HttpReceiver();
  let running: RunningDaemon;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    await receiver.start();
    receiver.failNext = Array(100).fill(400);
    const config = join(dir.path, 'tracker-sync.yaml');
    writeFileSync(config, [
      `data_dir: ${JSON.stringify(join(dir.path, 'data'))}`,
      'sandbox: { seed: none, budget: off }',
      'connections:',
      '  - id: broken',
      '    connector: spreadsheet',
      '    run_on_start: true',
      `    settings: { deals: { path: ${JSON.stringify(join(dir.path, 'missing.csv'))} } }`,
      'alerts:',
      '  - id: ops',
      '    type: webhook',
      `    url: ${receiver.url}/hook`,
      '    events: [run_failed, recovered]',
      '',
    ].join('\n'));
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'error' }, config);
    expect((await waitForFinishedRun(running.url, TOKEN, 'broken')).status).toBe('failed');
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await running?.stop();
    await receiver.stop();
    dir.remove();
    profile.remove();
  });

  it('GET /api/alerts: not counted as sent, failed, tried again later', async () => {
    let alerts: AlertsJson | undefined;
    for (const until = Date.now() + 15_000; alerts?.active[0]?.delivery !== 'failed'; await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > until) throw new Error(`the delivery did not fail: ${JSON.stringify(alerts)}`);
      alerts = (await api<AlertsJson>(running.url, TOKEN, '/api/alerts')).body;
    }
    expect(receiver.posts).toHaveLength(0);
    expect(alerts!.active).toEqual([expect.objectContaining({
      connection_id: 'broken', event: 'run_failed', last_sent_at: '', delivery: 'failed', delivery_failures: 1, last_error: expect.stringMatching(/^HTTP 400/),
    })]);
    expect(Date.parse(alerts!.active[0].retry_at!)).toBeGreaterThan(Date.now());
    expect(alerts!.deliveries).toEqual([expect.objectContaining({ event: 'run_failed', status: 'failed', attempts: 1 })]);
    const failed = await api<AlertsJson>(running.url, TOKEN, '/api/alerts?status=failed');
    expect(failed.body.deliveries.map((d) => d.status)).toEqual(['failed']);
  }, 30_000);

  inBrowser('the status page shows the condition as not delivered, and the message among those not delivered', async () => {
    context = await chromium.launchPersistentContext(profile.path, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
    const page: Page = context.pages()[0] ?? (await context.newPage());
    await page.goto(running.url + '/');
    await page.locator('#token').fill(TOKEN);
    await page.locator('#login-form button[type=submit]').click();
    await page.locator('#alert-failures-block').waitFor({ state: 'visible', timeout: 15_000 });
    await expectText(page.locator('#active-alerts tbody tr[data-alerts="broken"]'), /run_failed.*not delivered: 1 failed delivery \(HTTP 400[^)]*\); tried again after /s);
    const rows = page.locator('#alert-failures tbody tr');
    expect(await rows.count()).toBe(1);
    await expectText(rows.first(), /ops\s*webhook\s*run_failed\s*broken\s*1\s*HTTP 400/);
  }, 60_000);
});

async function expectText(locator: Locator, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < until) {
    text = ((await locator.textContent({ timeout: timeoutMs }).catch(() => '')) ?? '').trim();
    if (pattern.test(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`expected ${pattern}, the page shows: ${JSON.stringify(text.slice(0, 500))}`);
}
