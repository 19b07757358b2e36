import { AlertDispatcher } from '../../src/alerts/alert-dispatcher';
import { AlertEvaluator } from '../../src/alerts/alert-evaluator';
import { alertScrubber } from '../../src/alerts/alert-secrets';
import { AlertConfig } from '../../src/config/alert-config';
import { StoreRepositories } from '../../src/store/store-repositories';
import { HttpReceiver, SmtpReceiver } from '../support/alert-receivers';
import { CapturingLogger, EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

const BOT_TOKEN = '123456:bot-secret-token';
const SMTP_PASSWORD = 'smtp-pass-0815';
const SLACK_PATH = '/services/T000/B000/slack-secret-xyz';

/** One failing run of the real engine, reported through every type of channel, each to a real loopback receiver. */
describe('alerts: slack, telegram and email channels', () => {
  let h: EngineHarness;
  let slack: HttpReceiver;
  let telegram: HttpReceiver;
  let smtp: SmtpReceiver;
  let dispatcher: AlertDispatcher;
  let evaluator: AlertEvaluator;
  let logger: CapturingLogger;
  let alerts: AlertConfig[];

  beforeEach(async () => {
    slack = new HttpReceiver();
    telegram = new HttpReceiver();
    telegram.answer = { ok: true, result: { message_id: 1 } };
    smtp = new SmtpReceiver();
    await Promise.all([slack.start(), telegram.start(), smtp.start()]);
    h = await new EngineHarness().start();
    const alert = (fields: Partial<AlertConfig>) => Object.assign(new AlertConfig(), { events: ['run_failed', 'recovered'] }, fields);
    alerts = [
      alert({ id: 'team-slack', type: 'slack', url: `${slack.url}${SLACK_PATH}` }),
      alert({ id: 'team-telegram', type: 'telegram', bot_token: BOT_TOKEN, chat_id: '-100777', api_url: telegram.url }),
      alert({ id: 'team-mail', type: 'email', url: `smtp://alerts:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}`, from: 'tracker-sync@example.com', to: ['ops@example.com', 'lead@example.com'] }),
    ];
    h.config.alerts = alerts;
    const store = new StoreRepositories(h.dataSource);
    logger = new CapturingLogger();
    dispatcher = new AlertDispatcher(store.alerts, { logger, scrub: alertScrubber(h.config) }, { backoff: { baseMs: 20, maxMs: 50, jitter: false }, timeoutMs: 3000 });
    evaluator = new AlertEvaluator(alerts, h.config.connections, store, dispatcher, logger, { checkIntervalMs: 60_000, statusUrl: 'http://127.0.0.1:3000/' });
    evaluator.start(h.sync.events);
  });

  afterEach(async () => {
    await evaluator.stop();
    await dispatcher.stop(100);
    await h.stop();
    await Promise.all([slack.stop(), telegram.stop(), smtp.stop()]);
  });

  it('each channel gets the failure once, then the recovery once; no secret in any message or log line', async () => {
    h.source.deals = makeDeals(3);
    h.source.beforePage = () => {
      throw new Error(`token ${BOT_TOKEN} refused`);
    };
    const failed = await h.run();
    expect(failed.status).toBe('failed');
    await evaluator.settled();
    await dispatcher.idle();

    expect(slack.posts).toHaveLength(1);
    expect(slack.posts[0].path).toBe(SLACK_PATH);
    expect(Object.keys(slack.posts[0].body)).toEqual(['text']);
    expect(slack.posts[0].body.text).toBe(`[tracker-sync] demo: run ${failed.runId} failed: stream deals: token *** refused; the run went on without it: synced managers, clients\nhttp://127.0.0.1:3000/`);

    expect(telegram.posts).toHaveLength(1);
    expect(telegram.posts[0].path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(telegram.posts[0].body).toMatchObject({ chat_id: '-100777', text: slack.posts[0].body.text });

    const mails = await smtp.waitFor(1);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: 'tracker-sync@example.com', to: ['ops@example.com', 'lead@example.com'], user: 'alerts' });
    expect(mails[0].raw).toMatch(new RegExp(`Subject: \\[tracker-sync\\] demo: run ${failed.runId} failed: stream deals: token \\*\\*\\*\\s+refused;`)); // a long subject is folded
    expect(mails[0].raw).toContain('http://127.0.0.1:3000/');

    h.source.beforePage = undefined;
    expect((await h.run()).status).toBe('succeeded');
    await evaluator.settled();
    await dispatcher.idle();
    await smtp.waitFor(2);
    expect([slack.posts.length, telegram.posts.length, smtp.mails.length]).toEqual([2, 2, 2]);
    expect(slack.posts[1].body.text).toMatch(/recovered in run \d+ \(succeeded\): run_failed no longer holds/);
    expect(telegram.posts[1].body.text).toMatch(/recovered in run/);
    expect(smtp.mails[1].raw).toMatch(/recovered in run/);

    const everything = JSON.stringify([slack.posts.map((p) => p.body), telegram.posts.map((p) => p.body), smtp.mails, logger.lines]);
    for (const secret of [BOT_TOKEN, SMTP_PASSWORD, 'slack-secret-xyz']) expect(everything).not.toContain(secret);
  });

  it('a test message per channel answers the delivery result; a refusal is reported without the secret', async () => {
    const notice = { event: 'test' as const, connection: null, run_id: null, message: 'test message of alert x', counters: null, status_url: 'http://127.0.0.1:3000/', at: new Date().toISOString() };
    for (const alert of alerts) expect(await dispatcher.test(alert, notice)).toMatchObject({ status: 'sent', attempts: 1, error: null });
    expect(slack.posts).toHaveLength(1);
    expect(telegram.posts).toHaveLength(1);
    expect(await smtp.waitFor(1)).toHaveLength(1);

    telegram.answer = { ok: false, error_code: 400, description: 'Bad Request: chat not found' };
    const refused = await dispatcher.test(alerts[1], notice);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, error: 'Telegram: Bad Request: chat not found' });
    await telegram.stop();
    const down = await dispatcher.test(alerts[1], notice);
    expect(down.status).toBe('failed');
    expect(down.error).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify([down, logger.lines])).not.toContain(BOT_TOKEN);
  });
});
