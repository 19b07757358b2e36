import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { HttpReceiver } from '../support/alert-receivers';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from './admin-test-app';
import { GOOD_TOKEN } from './fixtures/test-connector';

const ADMIN_TOKEN = 'admin-token-for-alerts';
const HOOK_SECRET = 'hook-path-secret-31337';

/** GET /api/alerts and POST /api/alerts/{id}/test over real HTTP, fed by a real run; the metrics count the sends. */
describe('admin API: alerts', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication;
  let url: string;
  let dataDir: string;
  const receiver = new HttpReceiver();

  beforeAll(async () => {
    sandbox = await startSandbox();
    await receiver.start();
    dataDir = tempDataDir();
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connections: [{ id: 'shop', connector: 'test-source', settings: { token: GOOD_TOKEN, deals: 4 } }],
      alerts: [
        { id: 'ops', type: 'webhook', url: `${receiver.url}/hooks/${HOOK_SECRET}`, events: ['without_visit_share', 'recovered'] },
        { id: 'chat', type: 'telegram', bot_token: '999:telegram-bot-secret', chat_id: '42', api_url: 'http://127.0.0.1:1', events: ['run_failed'] },
      ],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    await receiver.stop();
    removeDir(dataDir);
  });

  const get = (path: string) => request(url).get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`);
  const post = (path: string) => request(url).post(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`);

  it('a run whose deals all lack a visit number: one alert, listed with its delivery state, active for the connection', async () => {
    expect((await post('/api/connections/shop/sync')).status).toBe(202);
    const [hook] = await receiver.waitFor(1, 10_000);
    expect(hook.body).toMatchObject({ event: 'without_visit_share', connection: 'shop' });
    expect(hook.body.message).toMatch(/^shop: 100% of the deals sent in run \d+ had no visit number \(4 of 4; alert at 50%\)/);
    expect(hook.body.status_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const res = await eventually(async () => {
      const answer = await get('/api/alerts');
      return answer.body.deliveries?.[0]?.status === 'sent' && answer;
    });
    expect(res.status).toBe(200);
    expect(res.body.alerts).toEqual([
      { id: 'ops', type: 'webhook', target: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/\*\*\*$/), connections: ['*'], events: ['without_visit_share', 'recovered'] },
      expect.objectContaining({ id: 'chat', type: 'telegram', target: 'chat 42', events: ['run_failed'] }),
    ]);
    expect(res.body.active).toEqual([expect.objectContaining({ alert_id: 'ops', connection_id: 'shop', event: 'without_visit_share', run_id: hook.body.run_id })]);
    expect(res.body.deliveries).toEqual([expect.objectContaining({ alert_id: 'ops', type: 'webhook', event: 'without_visit_share', connection_id: 'shop', status: 'sent', attempts: 1, reminder: false })]);
    expect(res.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(JSON.stringify(res.body)).not.toContain(HOOK_SECRET);
    expect(JSON.stringify(res.body)).not.toContain('telegram-bot-secret');
  });

  it('POST /api/alerts/{id}/test sends a test message and answers the result; a channel that is down answers failed', async () => {
    const sent = await post('/api/alerts/ops/test');
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ alert_id: 'ops', type: 'webhook', status: 'sent', attempts: 1, error: null, delivery_id: expect.any(Number) });
    const last = receiver.posts[receiver.posts.length - 1].body;
    expect(last).toMatchObject({ event: 'test', connection: null, run_id: null, counters: null });
    expect(last.message).toBe('test message of alert ops (webhook): alerts of tracker-sync reach this channel');

    const down = await post('/api/alerts/chat/test');
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ alert_id: 'chat', type: 'telegram', status: 'failed', attempts: 1, error: expect.stringMatching(/ECONNREFUSED/) });
    expect(JSON.stringify(down.body)).not.toContain('telegram-bot-secret');

    expect((await post('/api/alerts/nope/test')).status).toBe(404);
    expect((await request(url).post('/api/alerts/ops/test')).status).toBe(401);
    expect((await request(url).get('/api/alerts')).status).toBe(401);
    const onlyChat = await get('/api/alerts?alert=chat&limit=5');
    expect(onlyChat.body.deliveries.map((d: { event: string; status: string }) => `${d.event} ${d.status}`)).toEqual(['test failed']);
  });

  it('/metrics counts alerts sent by event and type, and the failed ones', async () => {
    const text = (await request(url).get('/metrics')).text;
    expect(text).toMatch(/tracker_sync_alerts_sent_total\{event="without_visit_share",type="webhook"\} 1/);
    expect(text).toMatch(/tracker_sync_alerts_sent_total\{event="test",type="webhook"\} 1/);
    expect(text).toMatch(/tracker_sync_alerts_failed_total 1/);
  });
});
