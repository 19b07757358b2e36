/**
 * The status page's Webhooks block in headless Chromium (Debian's `chromium`, as test/status-page/ drives it):
 * the last call per connection, and the run it started shown with its trigger `webhook`. A missing browser skips.
 */
import { existsSync } from 'node:fs';
import { chromium, BrowserContext, Locator, Page } from 'playwright-core';
import { tempDir } from '../daemon/daemon-harness';
import { sendHook, webhookCalls } from '../fixtures/crm/webhook-calls';
import { ADMIN_TOKEN, WebhookDaemon } from './webhook-daemon';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SUITE = 'webhooks on the status page (headless Chromium)';
const [describeInBrowser, suiteName] = existsSync(CHROMIUM) || process.env.CI
  ? [describe, SUITE] : [describe.skip, `${SUITE} skipped: ${CHROMIUM} is missing (install it: sudo apt-get install -y chromium)`];

async function expectText(locator: Locator, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = (await locator.textContent()) ?? '';
    if (pattern.test(text)) return;
    if (Date.now() > deadline) throw new Error(`"${text}" does not match ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeInBrowser(suiteName, () => {
  let d: WebhookDaemon;
  const profile = tempDir('chromium-profile');
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    d = await WebhookDaemon.start([{ id: 'pipedrive', preset: 'pipedrive' }, { id: 'hubspot', preset: 'hubspot' }]);
    const c = d.connection('pipedrive');
    expect((await sendHook(d.url, webhookCalls.pipedrive({ connection: 'pipedrive', secret: c.secret, dealId: c.crm.dealIds()[0] }))).status).toBe(202);
    expect((await sendHook(d.url, webhookCalls.hubspot({ connection: 'hubspot', secret: 'not-the-client-secret', dealId: '1', publicUrl: 'https://x' }))).status).toBe(401);
    const run = await d.until(async () => (await d.runs('pipedrive')).find((r) => r.trigger === 'webhook'), 10_000, 'the webhook run');
    await d.finished('pipedrive', run.id);
    context = await chromium.launchPersistentContext(profile.path, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
    page = context.pages()[0] ?? (await context.newPage());
  }, 90_000);
  afterAll(async () => {
    await context?.close();
    await d?.stop();
    profile.remove();
  });

  it('shows the last call of each connection, and the run a webhook started with its trigger', async () => {
    await page.goto(d.url + '/');
    await page.locator('#token').fill(ADMIN_TOKEN);
    await page.locator('#login-form button[type=submit]').click();
    await page.locator('#webhooks tbody tr[data-webhook="pipedrive"]').waitFor({ timeout: 15_000 });
    await expectText(page.locator('#webhooks tbody tr[data-webhook="pipedrive"]'), /accepted/);
    await expectText(page.locator('#webhooks tbody tr[data-webhook="hubspot"]'), /refused/);
    await page.locator('#connections tbody tr[data-id="pipedrive"]').click();
    await expectText(page.locator('#last-run'), /\(incremental, webhook\)/);
    await page.screenshot({ path: '/tmp/status-page-webhooks.png', fullPage: true });
  }, 60_000);
});
