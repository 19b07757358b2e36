import * as amocrm from '../fixtures/crm/amocrm';
import type { FixtureHandler } from '../fixtures/crm/crm-fixture-server';
import { sendHook, webhookCalls } from '../fixtures/crm/webhook-calls';
import { WebhookDaemon } from './webhook-daemon';

const DEBOUNCE_MS = 1000;

/**
 * A change the daemon makes itself fires the CRM's webhook too: amoCRM calls back on every lead update, the
 * write-back's included. That causes at most one extra run, which sends nothing and writes nothing: no chain.
 */
describe('webhooks: a change the daemon made itself (write-back) causes at most one extra run, never a chain', () => {
  let d: WebhookDaemon;
  const fired: string[][] = [];

  beforeAll(async () => {
    const crm = amocrm.createCrm({ moreDeals: 4 });
    // the CRM calls the daemon back after each update of leads, as amoCRM's update_lead webhook does
    const callingBack = (id: string, handler: FixtureHandler): FixtureHandler => (request, server) => {
      const answer = handler(request, server);
      const updated = crm.updatedIds(request);
      if (updated.length && (answer.status ?? 200) < 300) {
        fired.push(updated);
        const c = d.connection(id);
        setTimeout(() => void sendHook(d.url, webhookCalls.amocrm({ connection: id, secret: c.secret, dealId: updated[0] })), 50);
      }
      return answer;
    };
    d = await WebhookDaemon.start(
      [{ id: 'amo-wb', preset: 'amocrm', crm, settings: { write_back: { fields: { channel: 'Источник', city: 'город' } } } }],
      { wrap: callingBack },
    );
  }, 60_000);
  afterAll(async () => {
    await d?.stop();
  });

  it('the webhook run writes back; the CRM\'s call back makes one run that sends and writes nothing; then all is quiet', async () => {
    const c = d.connection('amo-wb');
    expect((await sendHook(d.url, webhookCalls.amocrm({ connection: 'amo-wb', secret: c.secret, dealId: c.crm.dealIds()[0] }))).status).toBe(202);

    // the first sync, its write-back (which the CRM answers with a call), the second sync and its write-back
    await d.until(async () => (await d.runs('amo-wb')).filter((r) => r.status !== 'running').length >= 4, 60_000, 'four finished runs');
    // quiet: nothing more starts for several debounces
    await new Promise((resolve) => setTimeout(resolve, 4 * DEBOUNCE_MS));
    const runs = await d.runs('amo-wb');
    const syncs = runs.filter((r) => r.mode !== 'write_back');
    const passes = runs.filter((r) => r.mode === 'write_back') as (typeof runs[number] & { write_back?: { written: number } })[];
    expect(syncs.map((r) => ({ trigger: r.trigger, status: r.status }))).toEqual([
      { trigger: 'webhook', status: 'succeeded' },
      { trigger: 'webhook', status: 'succeeded' },
    ]);
    expect(syncs[0].streams.deals?.sent).toBeGreaterThan(0);
    expect(syncs[1].streams.deals?.sent).toBe(0);
    expect(passes.length).toBe(2);
    expect(passes[0].write_back?.written).toBeGreaterThan(0);
    expect(passes[1].write_back?.written).toBe(0);
    // the CRM called back once (for the one write-back that wrote), and the daemon never ran two at once
    expect(fired.length).toBe(1);
    for (let i = 1; i < runs.length; i++) expect(Date.parse(runs[i].started_at)).toBeGreaterThanOrEqual(Date.parse(runs[i - 1].finished_at!));
  }, 90_000);
});
