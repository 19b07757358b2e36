/**
 * The status page in a real headless Chromium (Debian's `chromium`, driven by playwright-core: a test
 * tool's own browser download fails on these machines), against the real daemon with two connections: the
 * demo spreadsheet, and one whose deals file is binary (its run fails with a 60,000-character error).
 * CI installs chromium in .ci/run; elsewhere a missing browser skips.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, BrowserContext, Locator, Page } from 'playwright-core';
import { api, RunJson, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';
import { HttpReceiver } from '../support/alert-receivers';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'status-page-test-token';
const DEMO = 'demo-sheet';
const BINARY = 'binary-sheet';
const WRITES_BACK = 'crm-writes-back';
const SCREENSHOT = '/tmp/status-page.png';
const SCREENSHOT_PHONE = '/tmp/status-page-390.png';
const SCREENSHOT_WRITE_BACK = '/tmp/status-page-write-back.png';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
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
const SUITE = 'status page in headless Chromium';
const [describeInBrowser, suiteName] = available || mustRun ? [describe, SUITE] : [describe.skip, `${SUITE} skipped: ${SKIP_REASON}`];

/**
 * Bytes that look like one endless CSV header (no separator, quote or line break): what a garbled export reads as.
 * No control bytes either: a file of those is named a binary file in a short error (source/file-kind.ts), and this
 * test needs the long one.
 */
function binaryFile(path: string): void {
  let seed = 7;
  const bytes: number[] = [];
  while (bytes.length < 40_000) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const byte = seed >> 23;
    if (byte >= 0x20 && byte !== 0x7f && !',;"|'.includes(String.fromCharCode(byte))) bytes.push(byte);
  }
  writeFileSync(path, Buffer.from(bytes));
}

function config(dir: string, alertUrl: string, crmUrl: string): string {
  const demo = join(__dirname, '..', '..', 'config', 'demo');
  const file = join(dir, 'tracker-sync.yaml');
  binaryFile(join(dir, 'export.csv'));
  writeFileSync(
    file,
    [
      `data_dir: ${JSON.stringify(join(dir, 'data'))}`,
      'connections:',
      `  - id: ${DEMO}`,
      '    connector: spreadsheet',
      '    run_on_start: true',
      '    settings:',
      `      deals: { path: ${JSON.stringify(join(demo, 'deals.csv'))}, status_map: { new: "0", in_work: "0", "142": "1", "143": "2" } }`,
      `      clients: { path: ${JSON.stringify(join(demo, 'clients.csv'))} }`,
      `      managers: { path: ${JSON.stringify(join(demo, 'managers.csv'))} }`,
      `  - id: ${BINARY}`,
      '    connector: spreadsheet',
      '    run_on_start: true',
      '    settings:',
      `      deals: { path: ${JSON.stringify(join(dir, 'export.csv'))} }`,
      `  - id: ${WRITES_BACK}`,
      '    connector: generic-crm',
      '    run_on_start: true',
      '    settings:',
      `      base_url: ${crmUrl}`,
      '      auth: { type: none }',
      // its products endpoint refuses the token: the deals go, the run keeps a notice
      '      streams: { deals: { request: { path: /deals }, records: items, mapping: { id: id, created_at: created, visit_id: visit, products: "=_related.rows" },',
      '        enrich: [{ name: rows, feature: products, request: { path: /rows, query: { deal: "{{ids}}" } }, records: rows, match: deal, optional: { grant: "give the key the products scope" } }] } }',
      '      write_back: { fields: { channel: source, city: town }, request: { method: PUT, path: "/deals/{{id}}", body: "{{values}}" } }',
      'alerts:',
      '  - id: ops',
      '    type: webhook',
      `    url: ${alertUrl}`,
      '    events: [run_failed, recovered]',
      '',
    ].join('\n'),
  );
  return file;
}

describeInBrowser(suiteName, () => {
  const dir = tempDir('status-page');
  const profile = tempDir('chromium-profile');
  let running: RunningDaemon;
  let context: BrowserContext;
  let page: Page;
  let firstDemoRun: RunJson;
  let binaryRun: RunJson;
  let syncRunId: number;
  const alerts = new HttpReceiver();
  let crm: CrmServer;

  beforeAll(async () => {
    await alerts.start();
    // a CRM of two deals, one on a demo visit: its start-up sync is followed by a write-back
    const created = new Date(Date.now() - 3_600_000).toISOString();
    const items = [{ id: 1, created, visit: '1000001' }, { id: 2, created, visit: null }];
    crm = await startCrmServer((request) => {
      if (request.path === '/rows') return { status: 403, body: { error: 'forbidden', error_description: 'no products scope' } };
      return request.method === 'GET' ? { body: { items } } : { body: { ok: true } };
    });
    running = await startDaemon({ ADMIN_TOKEN: TOKEN }, config(dir.path, `${alerts.url}/hook`, crm.url));
    // the start-up runs first, so that a click starts a run instead of meeting the running one (409)
    firstDemoRun = await waitForFinishedRun(running.url, TOKEN, DEMO);
    binaryRun = await waitForFinishedRun(running.url, TOKEN, BINARY);
    context = await chromium.launchPersistentContext(profile.path, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: DESKTOP });
    page = context.pages()[0] ?? (await context.newPage());
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await running?.stop();
    await alerts.stop();
    await crm?.close();
    dir.remove();
    profile.remove();
  });

  const row = (id: string) => page.locator(`#connections tbody tr[data-id="${id}"]`);

  it('shows the login card alone, then asks for the token once and lists the connections with their last runs', async () => {
    await page.goto(running.url + '/');
    await page.locator('#token').waitFor({ timeout: 15_000 });
    expect(await page.locator('#login').isVisible()).toBe(true);
    expect(await page.locator('#app').isVisible()).toBe(false); // no empty connections table under the card
    expect(await page.locator('#connections').isVisible()).toBe(false);

    await page.locator('#token').fill(TOKEN);
    await page.locator('#login-form button[type=submit]').click();
    await row(DEMO).waitFor({ timeout: 15_000 });
    expect(await page.locator('#login').isVisible()).toBe(false);
    await expectText(row(DEMO), /spreadsheet/);
    await expectText(row(DEMO), /#1\s+succeeded/);
    await expectText(row(BINARY), new RegExp(`#${binaryRun.id}\\s+failed`));
    await expectText(page.locator('#last-run-status'), /^succeeded$/);
    await expectText(page.locator('#rejected tbody'), /deals\.csv row \d+/); // the rejected records of run 1, with their reasons
    await page.reload();
    await row(DEMO).waitFor({ timeout: 15_000 }); // the token is kept for the tab: no second prompt
    expect(await page.locator('#login').isHidden()).toBe(true);
  });

  it("cuts a garbled file's 60,000-character error with a show all, and the page stays as wide as the window", async () => {
    expect(binaryRun.error!.length).toBeGreaterThan(20_000);
    await row(BINARY).click();
    await expectText(page.locator('#last-run-status'), /^failed$/);
    const error = page.locator('#last-run-error');
    await expectText(error, /show all \([\d,]+ characters\)/);
    expect(((await error.textContent()) ?? '').length).toBeLessThan(400);
    expect(await pageWidth(page)).toBeLessThanOrEqual(DESKTOP.width);

    await error.locator('button[data-toggle]').click();
    await expectText(error, /show less$/);
    const whole = error.locator('pre');
    expect(((await whole.textContent()) ?? '').length).toBeGreaterThan(20_000);
    expect((await whole.boundingBox())!.height).toBeLessThan(400); // a box that scrolls, not a page-long wall
    expect(await pageWidth(page)).toBeLessThanOrEqual(DESKTOP.width);
    await error.locator('button[data-toggle]').click();
    await expectText(error, /show all/);
  });

  it('lists the open rejections of each connection', async () => {
    const open = await api<{ rejected: unknown[]; total: number }>(running.url, TOKEN, `/api/connections/${DEMO}/rejected?limit=1`);
    expect(open.status).toBe(200);
    expect(open.body.total).toBeGreaterThan(0);
    await row(DEMO).click();
    await expectText(row(DEMO).locator('td.open-count'), new RegExp(`^${open.body.total}$`));
    await expectText(page.locator('#open-rejected-title'), new RegExp(`^Open rejections \\(${open.body.total}`));
    await expectText(page.locator('#open-rejected tbody'), /deals\.csv row \d+/);
    expect(await page.locator('#open-rejected tbody tr').count()).toBe(Math.min(open.body.total, 50));
  });

  it('shows the active alerts per connection in a block of their own', async () => {
    const [hook] = await alerts.waitFor(1, 20_000);
    expect(hook.body).toMatchObject({ event: 'run_failed', connection: BINARY, run_id: binaryRun.id });
    const block = page.locator('#active-alerts tbody');
    await expectText(block, new RegExp(`^${BINARY}\\s*run_failed\\s*ops · since .+run ${binaryRun.id} failed`));
    expect(await page.locator('#active-alerts tbody tr').count()).toBe(1); // the demo's runs succeed: no alert
    expect(alerts.posts).toHaveLength(1);
  });

  it("shows a connection's write-back runs with their counters in a block of their own", async () => {
    const writeBack = await finishedWriteBack(running.url);
    expect(writeBack).toMatchObject({ mode: 'write_back', status: 'succeeded', write_back: { attributed: 1, written: 1, unchanged: 0, rejected: 0 } });
    await row(WRITES_BACK).locator('td').first().click();
    await expectText(page.locator('#detail-title'), new RegExp(`^${WRITES_BACK}$`));
    await page.locator('#write-back-block').waitFor({ state: 'visible', timeout: 5_000 });
    const cells = page.locator(`#write-back tbody tr[data-run="${writeBack.id}"] td`);
    expect(await cells.allInnerTexts()).toEqual([`#${writeBack.id} (startup)`, 'succeeded', expect.any(String), '1', '1', '0', '0', '']);
    await expectText(page.locator('#last-run-id'), /^#\d+$/); // the last sync, not the write-back
    // what the sync left out, under its streams: the CRM refused the products
    await expectText(page.locator('#last-run-notices'), /deals: connection crm-writes-back, stream deals: products left out: enrichment rows was refused \(GET \/rows answered .*HTTP 403.*give the key the products scope/);
    expect(await page.locator('#last-run-id').innerText()).not.toBe(`#${writeBack.id}`);
    expect(crm.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual(['/deals/1']);
    // the connection's state and last run are its sync's; the write-back has a line of its own under them
    await expectText(row(WRITES_BACK).locator('[data-flow="write_back"]'), new RegExp(`^write-back\\s+idle\\s+#${writeBack.id} succeeded`));
    await page.screenshot({ path: SCREENSHOT_WRITE_BACK, fullPage: true });
    await row(DEMO).locator('td').first().click();
    await page.locator('#write-back-block').waitFor({ state: 'hidden', timeout: 5_000 }); // the sheet writes nothing back
  });

  it('starts a run with Sync, and the "started run" notice clears when the run ends', async () => {
    await recordNotices(page);
    await row(DEMO).locator('button[data-action="sync"]').click();
    syncRunId = Number((await shownNotice(page, /^started run #(\d+) of demo-sheet$/))[1]);
    await expectText(page.locator('#last-run-id'), new RegExp(`^#${syncRunId}$`));
    await expectText(page.locator('#last-run-status'), /^succeeded$/);
    await expectText(row(DEMO), new RegExp(`#${syncRunId}\\s+succeeded`));
    await expectText(page.locator('#notice'), /^$/);
    expect(await page.locator('#chart svg rect').count()).toBe(2);
  });

  it("asks before a Resync, saying what it costs against the service's hourly budget", async () => {
    // what a full run sends: ceil(read / 500) add-orders and clients imports, one request per manager
    const reads = firstDemoRun.streams;
    const requests = Math.ceil(reads.deals.read / 500) + Math.ceil(reads.clients.read / 500) + reads.managers.read;
    const share = Math.round((1000 * requests) / 5000) / 10;

    await row(DEMO).locator('button[data-action="resync"]').click();
    const dialog = page.locator('#resync-dialog');
    await dialog.waitFor({ state: 'visible', timeout: 5_000 });
    await expectText(page.locator('#resync-cost'), new RegExp(`^About ${requests} requests, ${share}% of the hourly budget \\(the service allows 5,000 requests an hour per project`));
    await expectText(dialog, /this daemon takes at most 4,000/);
    await page.locator('#resync-cancel').click();
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const afterCancel = await api<{ runs: RunJson[] }>(running.url, TOKEN, `/api/runs?connection=${DEMO}&limit=1`);
    expect(afterCancel.body.runs[0].id).toBe(syncRunId); // nothing started

    await row(DEMO).locator('button[data-action="resync"]').click();
    await page.locator('#resync-cost').waitFor({ timeout: 5_000 });
    await recordNotices(page);
    await page.locator('#resync-confirm').click();
    const resyncRunId = Number((await shownNotice(page, /^started run #(\d+) of demo-sheet$/))[1]);
    const run = await waitForFinishedRun(running.url, TOKEN, DEMO, resyncRunId);
    expect(run).toMatchObject({ mode: 'full', status: 'succeeded' });
    await expectText(page.locator('#last-run-id'), new RegExp(`^#${resyncRunId}$`));
    await expectText(page.locator('#notice'), /^$/);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('is usable at 390 px wide: nothing wider than the window, every button in reach', async () => {
    await page.setViewportSize(PHONE);
    for (const id of [BINARY, DEMO]) {
      await row(id).locator('td').first().click();
      await expectText(page.locator('#detail-title'), new RegExp(`^${id}$`));
      await expectText(page.locator('#last-run-status'), id === BINARY ? /^failed$/ : /^succeeded$/);
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    }
    for (const button of await page.locator('#connections button, #logout').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await row(BINARY).locator('td').first().click();
    await page.locator('#last-run-error button[data-toggle]').click();
    await page.locator('#last-run-error pre').waitFor({ timeout: 5_000 });
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await row(DEMO).locator('td').first().click();
    await expectText(page.locator('#last-run-status'), /^succeeded$/);
    await page.screenshot({ path: SCREENSHOT_PHONE, fullPage: true });
  });
});

/** The write-back run that followed the start-up sync of WRITES_BACK, once finished. */
async function finishedWriteBack(url: string, timeoutMs = 30_000): Promise<RunJson> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api<{ runs: RunJson[] }>(url, TOKEN, `/api/runs?connection=${WRITES_BACK}&limit=10`);
    const run = body.runs.find((r) => r.mode === 'write_back' && r.status !== 'running');
    if (run) return run;
    if (Date.now() > until) throw new Error(`no finished write-back run of ${WRITES_BACK}: ${JSON.stringify(body.runs)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The width of the whole document: over the window's width means the page scrolls sideways. */
function pageWidth(page: Page): Promise<number> {
  return page.evaluate<number>('Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)');
}

/** Keeps every text the notice shows, since a quick run may end (and clear it) before a poll of the test sees it. */
async function recordNotices(page: Page): Promise<void> {
  // a string: the test's TypeScript has no DOM types
  await page.evaluate(`(() => {
    const notice = document.getElementById('notice');
    window.notices = [];
    new MutationObserver(() => window.notices.push(notice.textContent)).observe(notice, { childList: true, characterData: true, subtree: true });
  })()`);
}

async function shownNotice(page: Page, pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> {
  const until = Date.now() + timeoutMs;
  let seen: string[] = [];
  while (Date.now() < until) {
    seen = await page.evaluate<string[]>('window.notices');
    for (const text of seen) {
      const match = pattern.exec(text);
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the notice never showed ${pattern}; it showed: ${JSON.stringify(seen)}`);
}

/** Waits (the page polls every 2 s) until the element's text matches. */
async function expectText(locator: Locator, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  const until = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < until) {
    text = ((await locator.textContent({ timeout: timeoutMs }).catch(() => '')) ?? '').trim();
    const match = pattern.exec(text);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`expected ${pattern}, the page shows: ${JSON.stringify(text.slice(0, 500))}`);
}
