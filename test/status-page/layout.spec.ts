/**
 * The status page's layout in a real headless Chromium with seven connections (the real daemon; six spreadsheet
 * connections synced at start-up and a CRM that cannot be reached, whose failure shows in its row): at 1280 px no
 * word is broken mid-word ("spreadshee/t"), at 390 px nothing is cut at the right edge, and a tapped connection's
 * details scroll into view. Screenshots: /tmp/status-page-7-1280.png, /tmp/status-page-7-390.png (and -top.png,
 * the first screen), /tmp/status-page-7-390-tapped.png.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, BrowserContext, Page } from 'playwright-core';
import { RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'status-page-layout-token';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHEETS = ['demo-sheet', 'moscow-store-deals', 'spb-store-deals', 'kazan-franchise-export', 'online-shop-orders', 'marketing-leads-sheet'];
const CRM = 'amocrm-main-pipeline';

const available = existsSync(CHROMIUM);
const SUITE = 'status page layout with seven connections in headless Chromium';
const [describeInBrowser, suiteName] = available || process.env.CI ? [describe, SUITE] : [describe.skip, `${SUITE} skipped: ${CHROMIUM} is missing (install it: sudo apt-get install -y chromium)`];

/** A loopback port nobody listens on: the CRM connection's run fails at once, with its error in the row. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function config(dir: string, crmPort: number): string {
  const demo = join(__dirname, '..', '..', 'config', 'demo');
  const file = join(dir, 'tracker-sync.yaml');
  const sheet = (id: string) => [
    `  - id: ${id}`,
    '    connector: spreadsheet',
    '    schedule: "*/15 * * * *"',
    '    run_on_start: true',
    '    settings:',
    `      deals: { path: ${JSON.stringify(join(demo, 'deals.csv'))}, status_map: { new: "0", in_work: "0", "142": "1", "143": "2" } }`,
    `      clients: { path: ${JSON.stringify(join(demo, 'clients.csv'))} }`,
    `      managers: { path: ${JSON.stringify(join(demo, 'managers.csv'))} }`,
  ];
  writeFileSync(
    file,
    [
      `data_dir: ${JSON.stringify(join(dir, 'data'))}`,
      'tracker: { batch_size: 1000 }',
      'sandbox: { budget: off }',
      'connections:',
      ...SHEETS.flatMap(sheet),
      `  - id: ${CRM}`,
      '    connector: generic-crm',
      '    run_on_start: true',
      '    settings:',
      '      preset: amocrm',
      `      base_url: http://127.0.0.1:${crmPort}`,
      '      token: layout-test-token',
      '',
    ].join('\n'),
  );
  return file;
}

describeInBrowser(suiteName, () => {
  const dir = tempDir('status-layout');
  const profile = tempDir('chromium-layout');
  let running: RunningDaemon;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    running = await startDaemon({ ADMIN_TOKEN: TOKEN }, config(dir.path, await closedPort()));
    for (const id of [...SHEETS, CRM]) await waitForFinishedRun(running.url, TOKEN, id, undefined, 90_000);
    context = await chromium.launchPersistentContext(profile.path, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: DESKTOP });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(running.url + '/');
    await page.locator('#token').fill(TOKEN);
    await page.locator('#login-form button[type=submit]').click();
    await page.locator(`#connections tbody tr[data-id="${CRM}"]`).waitFor({ timeout: 15_000 });
    await page.locator('#last-run-status').waitFor({ timeout: 15_000 });
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await running?.stop();
    dir.remove();
    profile.remove();
  });

  it('at 1280 px: seven rows, no word broken across lines, nothing wider than the window', async () => {
    expect(await page.locator('#connections tbody tr').count()).toBe(7);
    await page.locator(`#connections tbody tr[data-id="${CRM}"] .state-failing`).waitFor({ timeout: 15_000 });
    expect(await brokenWords(page, '#connections')).toEqual([]);
    expect(await brokenWords(page, '#last-run')).toEqual([]);
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/status-page-7-1280.png', fullPage: true });
  });

  it('at 390 px: every table fits (no last column cut), no word broken', async () => {
    await page.setViewportSize(PHONE);
    await page.evaluate('window.scrollTo(0, 0)');
    expect(await overflowing(page)).toEqual([]);
    expect(await brokenWords(page, '#connections')).toEqual([]);
    expect(await brokenWords(page, '#last-run')).toEqual([]);
    await page.screenshot({ path: '/tmp/status-page-7-390.png', fullPage: true });
    await page.screenshot({ path: '/tmp/status-page-7-390-top.png' });
  });

  it("at 390 px: a tapped connection's details scroll into view", async () => {
    await page.setViewportSize(PHONE);
    await page.evaluate('window.scrollTo(0, 0)');
    // the second connection, near the top: its details begin below all seven cards
    const second = page.locator(`#connections tbody tr[data-id="${SHEETS[1]}"] td`).first();
    expect(await page.evaluate<number>('document.getElementById("detail").getBoundingClientRect().top')).toBeGreaterThan(1500);
    await second.click();
    await page.waitForFunction(`document.getElementById('detail-title').textContent === ${JSON.stringify(SHEETS[1])}`);
    await page.waitForFunction('Math.abs(document.getElementById("detail").getBoundingClientRect().top) < 40', undefined, { timeout: 5_000 });
    expect(await page.evaluate<number>('window.scrollY')).toBeGreaterThan(1500);
    await page.locator('#last-run-status').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: '/tmp/status-page-7-390-tapped.png' });
  });
});

// In the page (strings: the tests' TypeScript has no DOM types).

/** Words of the element's text (hyphens split words; long error texts aside: they may break anywhere) that the layout cut across lines. */
const BROKEN_WORDS = String.raw`(root) => {
  const scope = document.querySelector(root);
  if (!scope) return ['(no ' + root + ')'];
  const broken = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('.long, svg') || node.parentElement.offsetParent === null) continue;
    const text = node.textContent || '';
    const words = /[^\s-]+/g; // a break after a hyphen is a line break, not a word cut
    for (let match = words.exec(text); match; match = words.exec(text)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}`;

/** Elements that stick out of the window on the right, or boxes whose content is cut and scrolls sideways. */
const OVERFLOWING = String.raw`() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ').join('.') : '');
  for (const el of document.querySelectorAll('#app th, #app td, #app table, #app button, #app .scroll')) {
    if (el.offsetParent === null) continue; // not shown
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5) found.push(name(el) + ' ends at ' + Math.round(box.right) + ' px: ' + el.textContent.slice(0, 40));
    if (el.matches('.scroll') && el.scrollWidth > el.clientWidth + 1) found.push(name(el) + ' scrolls sideways (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
  }
  if (document.documentElement.scrollWidth > width) found.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
  return found;
}`;

function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(`(${BROKEN_WORDS})(${JSON.stringify(selector)})`);
}

function overflowing(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(${OVERFLOWING})()`);
}
