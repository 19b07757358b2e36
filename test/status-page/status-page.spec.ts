/**
 * The status page in a real headless Chromium (Debian's `chromium`, driven by playwright-core: a test
 * tool's own browser download fails on these machines). Enter the token, see the demo connection,
 * click Sync, see the new run succeed. CI installs chromium in .ci/run; elsewhere a missing browser skips.
 */
import { existsSync } from 'node:fs';
import { chromium, BrowserContext, Page } from 'playwright-core';
import { RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'status-page-test-token';
const SCREENSHOT = '/tmp/status-page.png';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const available = existsSync(CHROMIUM);
const mustRun = Boolean(process.env.CI);
// the reason is in the suite's name: jest's summary (test/support/skip-reasons-reporter.js) lists it
const SKIP_REASON = `${CHROMIUM} is missing (install it: sudo apt-get install -y chromium)`;
const [describeInBrowser, suiteName] =
  available || mustRun ? [describe, 'status page in headless Chromium'] : [describe.skip, `status page in headless Chromium skipped: ${SKIP_REASON}`];

describeInBrowser(suiteName, () => {
  const dataDir = tempDir('status-page');
  const profile = tempDir('chromium-profile');
  let running: RunningDaemon;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    running = await startDaemon({ DATA_DIR: dataDir.path, ADMIN_TOKEN: TOKEN });
    // the start-up run first, so that the click starts a run instead of meeting the running one (409)
    await waitForFinishedRun(running.url, TOKEN, 'demo-sheet', 1);
    context = await chromium.launchPersistentContext(profile.path, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
    page = context.pages()[0] ?? (await context.newPage());
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await running?.stop();
    dataDir.remove();
    profile.remove();
  });

  it('asks for the token once, then lists the demo connection with its last run', async () => {
    await page.goto(running.url + '/');
    await page.locator('#token').fill(TOKEN);
    await page.locator('#login-form button[type=submit]').click();
    const row = page.locator('#connections tbody tr[data-id="demo-sheet"]');
    await row.waitFor({ timeout: 15_000 });
    await expectText(row, /spreadsheet/);
    await expectText(row, /#1\s+succeeded/);
    await expectText(page.locator('#last-run-status'), /^succeeded$/);
    await expectText(page.locator('#rejected tbody'), /deals\.csv row \d+/); // the rejected records of run 1, with their reasons
    await page.reload();
    await row.waitFor({ timeout: 15_000 }); // the token is kept for the tab: no second prompt
    expect(await page.locator('#login').isHidden()).toBe(true);
  });

  it('starts a run with Sync and shows it as succeeded', async () => {
    await page.locator('button[data-action="sync"][data-id="demo-sheet"]').click();
    await expectText(page.locator('#last-run-id'), /^#2$/);
    await expectText(page.locator('#last-run-status'), /^succeeded$/);
    await expectText(page.locator('#connections tbody tr[data-id="demo-sheet"]'), /#2\s+succeeded/);
    expect(await page.locator('#chart svg rect').count()).toBe(2);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });
});

/** Waits (the page polls every 2 s) until the element's text matches. */
async function expectText(locator: ReturnType<Page['locator']>, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < until) {
    text = ((await locator.textContent({ timeout: timeoutMs }).catch(() => '')) ?? '').trim();
    if (pattern.test(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`expected ${pattern}, the page shows: ${JSON.stringify(text)}`);
}
