/**
 * The status page by project, in a real headless Chromium against the real daemon with 100 projects on the embedded
 * sandbox: a heading per project (its number, its counts), the groups collapsed but the selected connection's, a
 * filter box; and with a scoped token (admin.tokens) only that token's projects' connections.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, Browser, Page } from 'playwright-core';
import { api, RunningDaemon, startDaemon, tempDir } from '../daemon/daemon-harness';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SUITE = 'status page by project in headless Chromium';
const available = existsSync(CHROMIUM);
const [describeInBrowser, suiteName] = available || process.env.CI ? [describe, SUITE] : [describe.skip, `${SUITE} skipped: ${CHROMIUM} is missing (install it: sudo apt-get install -y chromium)`];

const FULL = 'projects-page-full-token';
const ACME_VIEWER = 'projects-page-acme-viewer';
/** acme (2 connections), beta (1) and p003…p100 (1 each): 100 projects, and the tracker: project (`default`, 1) */
const OTHERS = Array.from({ length: 98 }, (_, i) => `p${String(i + 3).padStart(3, '0')}`);

function config(dir: string): string {
  const deals = JSON.stringify(join(__dirname, '..', '..', 'config', 'demo', 'deals.csv'));
  const sheet = (id: string, project: string) => `  - { id: ${id}, connector: spreadsheet, project: ${project}, settings: { deals: { path: ${deals} } } }`;
  const file = join(dir, 'tracker-sync.yaml');
  writeFileSync(file, [
    `data_dir: ${JSON.stringify(join(dir, 'data'))}`,
    `sandbox: { seed: none, projects: ${OTHERS.length + 3} }`,
    'projects:',
    '  acme: { project: "2" }',
    '  beta: { project: "3" }',
    ...OTHERS.map((name, i) => `  ${name}: { project: "${i + 4}" }`),
    'admin:',
    `  token: ${FULL}`,
    `  tokens: [{ name: acme, token: ${ACME_VIEWER}, projects: [acme] }]`,
    'connections:',
    sheet('acme-sheet-1', 'acme'),
    sheet('acme-sheet-2', 'acme'),
    sheet('beta-sheet', 'beta'),
    ...OTHERS.map((name) => sheet(`${name}-sheet`, name)),
    `  - { id: default-sheet, connector: spreadsheet, settings: { deals: { path: ${deals} } } }`,
    '',
  ].join('\n'));
  return file;
}

describeInBrowser(suiteName, () => {
  const dir = tempDir('status-projects');
  let running: RunningDaemon;
  let browser: Browser;

  beforeAll(async () => {
    running = await startDaemon({ LOG_LEVEL: 'error' }, config(dir.path));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    dir.remove();
  });

  /** A fresh tab (its own sessionStorage) logged in with `token`, its list drawn. */
  async function open(token: string, firstRow: string): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(running.url + '/');
    await page.locator('#token').fill(token);
    await page.locator('#login-form button[type=submit]').click();
    await page.locator(`#connections tbody tr[data-id="${firstRow}"]`).waitFor({ timeout: 30_000 });
    return page;
  }

  const rowIds = (page: Page) => page.locator('#connections tbody tr[data-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
  const groups = (page: Page) => page.locator('#connections tbody tr.project-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-project')));

  it('with the full token: 101 project headings with their numbers, collapsed but the selected connection\'s; the filter finds any', async () => {
    const page = await open(FULL, 'acme-sheet-1');
    expect(await groups(page)).toEqual(['default', 'acme', 'beta', ...OTHERS]);
    expect(await rowIds(page)).toEqual(['acme-sheet-1', 'acme-sheet-2']); // the selected connection's group alone is open
    const acme = page.locator('#connections tr[data-project="acme"]');
    expect(await acme.textContent()).toMatch(/acme\s+#2 · 2 connections/);
    expect(await page.locator('#connections tr[data-project="p042"]').textContent()).toMatch(/p042\s+#43 · 1 connection\b/);
    expect(await page.locator('#connections tr[data-project="default"]').textContent()).toMatch(/default\s+the sandbox's project · 1 connection · \d+ of 4,000 requests this hour/);
    expect(await page.locator('#filter-count').textContent()).toBe('101 projects, 102 connections');
    expect(await page.locator('tr[data-id="acme-sheet-1"] button[data-action]').allTextContents()).toEqual(['Sync', 'Resync']);

    // a click unfolds a group
    await page.locator('#connections tr[data-project="beta"] button[data-group]').click();
    expect(await rowIds(page)).toEqual(['acme-sheet-1', 'acme-sheet-2', 'beta-sheet']);

    // the filter: a project's name (or number) shows its connections, a connection's id that connection
    await page.locator('#filter').fill('p042');
    expect(await groups(page)).toEqual(['p042']);
    expect(await rowIds(page)).toEqual(['p042-sheet']);
    await page.locator('#filter').fill('sheet-2');
    expect(await rowIds(page)).toEqual(['acme-sheet-2']);
    expect(await page.locator('#filter-count').textContent()).toBe('1 of 102 connections');
    await page.locator('#filter').fill('#3'); // a number: beta (#3) and the projects #30…#39 (p029…p038)
    expect(await rowIds(page)).toEqual(['beta-sheet', ...OTHERS.slice(26, 36).map((n) => `${n}-sheet`)]);
    await page.locator('#filter').fill('');
    await page.screenshot({ path: '/tmp/status-page-100-projects.png', fullPage: false });
    await page.context().close();
  }, 90_000);

  it("with a scoped token: only its project's connections, nothing of the others", async () => {
    const page = await open(ACME_VIEWER, 'acme-sheet-1');
    await page.waitForTimeout(2_500); // a second poll: nothing else arrives
    expect(await rowIds(page)).toEqual(['acme-sheet-1', 'acme-sheet-2']);
    expect(await groups(page)).toEqual([]); // one project: no headings
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).not.toMatch(/beta|p0\d\d|default-sheet/);
    expect(await page.locator('#budget-block').isHidden()).toBe(true); // the installation's budget is not its to see (403)
    // a viewer may not start runs: no Sync or Resync button that would answer 403, a word saying why
    expect(await page.locator('button[data-action]').count()).toBe(0);
    expect(await page.locator('tr[data-id="acme-sheet-1"] td.actions').textContent()).toBe('read-only');
    const session = await api<{ name: string; role: string; projects: string[] | null }>(running.url, ACME_VIEWER, '/api/session');
    expect(session.body).toEqual({ name: 'acme', role: 'viewer', projects: ['acme'] });
    expect((await api(running.url, FULL, '/api/session')).body).toEqual({ name: 'full', role: 'full', projects: null });
    // the API agrees: the page shows what the token may see, no more
    const listed = await api<{ connections: { id: string }[] }>(running.url, ACME_VIEWER, '/api/connections');
    expect(listed.body.connections.map((c) => c.id)).toEqual(['acme-sheet-1', 'acme-sheet-2']);
    await page.context().close();
  }, 60_000);
});
