import { AlertDispatcher } from '../../src/alerts/alert-dispatcher';
import { AlertEvaluator } from '../../src/alerts/alert-evaluator';
import { alertScrubber } from '../../src/alerts/alert-secrets';
import { MAX_ERROR_CHARS, runConditions } from '../../src/alerts/run-conditions';
import { AlertConfig } from '../../src/config/alert-config';
import { StoreRepositories } from '../../src/store/store-repositories';
import { HttpReceiver } from '../support/alert-receivers';
import { CapturingLogger, EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

const SECRET = 'hook-secret-4711';
const STATUS_URL = 'http://127.0.0.1:3000/';

/** The real engine (memory connector, loopback service, SQLite store) feeding alerts to a loopback webhook. */
describe('alerts: events of real runs, sent to a webhook', () => {
  let h: EngineHarness;
  let receiver: HttpReceiver;
  let store: StoreRepositories;
  let dispatcher: AlertDispatcher;
  let evaluator: AlertEvaluator;
  let logger: CapturingLogger;
  const sent: string[] = [];

  async function start(alert: Partial<AlertConfig>, options: { schedule?: string; checkIntervalMs?: number; retry?: { baseMs: number; maxMs: number } } = {}): Promise<AlertConfig> {
    receiver = new HttpReceiver();
    await receiver.start();
    h = await new EngineHarness().start();
    if (options.schedule) h.config.connections[0].schedule = options.schedule;
    const config = Object.assign(new AlertConfig(), { id: 'ops', type: 'webhook', url: `${receiver.url}/hooks/${SECRET}` }, alert);
    h.config.alerts = [config];
    store = new StoreRepositories(h.dataSource);
    logger = new CapturingLogger();
    sent.length = 0;
    dispatcher = new AlertDispatcher(store.alerts, { logger, scrub: alertScrubber(h.config), onSent: (event, type) => sent.push(`${event} ${type}`) }, {
      backoff: { baseMs: 50, maxMs: 200, jitter: false },
      timeoutMs: 2000,
    });
    evaluator = new AlertEvaluator(h.config.alerts, h.config.connections, store, dispatcher, logger, {
      checkIntervalMs: options.checkIntervalMs ?? 60_000,
      statusUrl: STATUS_URL,
      retry: options.retry,
    });
    return config;
  }

  async function settle(): Promise<void> {
    await evaluator.settled();
    await dispatcher.idle();
  }

  afterEach(async () => {
    await evaluator?.stop();
    await dispatcher?.stop(100);
    await h?.stop();
    await receiver?.stop();
  });

  it('run_failed once with the error, a reminder after `repeat`, then one recovered', async () => {
    await start({ events: ['run_failed', 'recovered'], repeat: '1s' }, { checkIntervalMs: 200 });
    evaluator.start(h.sync.events);
    h.source.deals = makeDeals(4);
    h.source.beforePage = () => {
      throw new Error(`CRM answered 502 at ${receiver.url}/hooks/${SECRET}`);
    };
    const failed = await h.run();
    expect(failed.status).toBe('failed');
    await settle();
    expect(receiver.posts).toHaveLength(1);
    const first = receiver.posts[0];
    expect(first.path).toBe(`/hooks/${SECRET}`);
    expect(Object.keys(first.body).sort()).toEqual(['at', 'connection', 'counters', 'event', 'message', 'run_id', 'status_url']);
    expect(first.body).toMatchObject({ event: 'run_failed', connection: 'demo', run_id: failed.runId, status_url: STATUS_URL });
    expect(first.body.message).toMatch(/^demo: run \d+ failed: .*CRM answered 502/);
    expect(first.body.counters).toMatchObject({ read: 0, sent: 0, processed: 0 });
    expect(new Date(first.body.at).toISOString()).toBe(first.body.at);
    // the error quoted the alert's own URL: its secret is cut out of the message and the logs
    expect(first.body.message).toMatch(/CRM answered 502 at \*\*\*; the run went on without it: synced managers, clients$/);

    // failing again within `repeat`: nothing new (one alert per connection and event)
    expect((await h.run()).status).toBe('failed');
    await settle();
    expect(receiver.posts).toHaveLength(1);

    // still failing after `repeat`: the timer sends one reminder
    await receiver.waitFor(2, 4000);
    expect(receiver.posts[1].body).toMatchObject({ event: 'run_failed', connection: 'demo' });
    expect(receiver.posts[1].body.message).toMatch(/^Reminder: demo: run \d+ failed/);

    h.source.beforePage = undefined;
    const fixed = await h.run();
    expect(fixed.status).toBe('succeeded');
    await settle();
    const after = receiver.posts.slice(2);
    expect(after).toHaveLength(1);
    expect(after[0].body).toMatchObject({ event: 'recovered', connection: 'demo', run_id: fixed.runId });
    expect(after[0].body.message).toMatch(/recovered in run \d+ \(succeeded\): run_failed no longer holds/);
    expect(after[0].body.counters).toMatchObject({ read: 4, sent: 4 });

    // recovered means quiet: another good run and more time send nothing
    await h.run();
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await settle();
    expect(receiver.posts).toHaveLength(3);
    expect(sent).toEqual(['run_failed webhook', 'run_failed webhook', 'recovered webhook']);
    expect(logger.lines.join('\n')).not.toContain(SECRET);
  });

  it('the shares of a run: deals without a visit, rejected records, deals the service skipped', async () => {
    await start({ events: ['without_visit_share', 'rejected_share', 'skipped_share', 'recovered'], without_visit_share: 0.5, rejected_share: 0.1, skipped_share: 0.2 });
    evaluator.start(h.sync.events);
    // 10 deals: 5 without a visit; 2 unreadable rows of 12; the service skips 3 of 10 waiting for their visit
    h.source.deals = makeDeals(10);
    h.source.rejected = [{ id: 'r1', field: 'price', reason: 'not a number' }, { id: 'r2', field: 'price', reason: 'not a number' }] as never;
    h.service.script = (call) => {
      if (call.path !== '/project/add-orders') return undefined;
      const n = call.body.length;
      return { status: 200, body: { status: 'success', uploaded: n, processed: n, saved: n - 3, skipped_by_status: 1, skipped_by_waiting_visit_info: 2, skipped_by_internal_error: 0, skipped_because_not_changed: 0, skipped_by_invalid_format: 0, skipped_fields_by_invalid_format: 0, comment: '' } };
    };
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    await settle();
    const byEvent = Object.fromEntries(receiver.posts.map((p) => [p.body.event, p.body]));
    expect(Object.keys(byEvent).sort()).toEqual(['rejected_share', 'skipped_share', 'without_visit_share']);
    expect(receiver.posts).toHaveLength(3);
    expect(byEvent.without_visit_share.message).toMatch(/^demo: 50% of the deals sent in run \d+ had no visit number \(5 of 10; alert at 50%\)/);
    expect(byEvent.rejected_share.message).toMatch(/16.7% of the records read in run \d+ were rejected \(2 of 12; alert at 10%\)/);
    expect(byEvent.skipped_share.message).toMatch(/skipped 30% of the deals sent in run \d+ \(3 of 10: skipped_by_status 1, skipped_by_waiting_visit_info 2, skipped_by_internal_error 0; alert at 20%\)/);
    expect(byEvent.skipped_share.counters).toMatchObject({ processed: 10, skipped_by_status: 1, skipped_by_waiting_visit_info: 2, sent_without_visit: 5 });

    // the site form is fixed and the statuses mapped: one recovered naming what ended; the rejected rows stay
    h.source.deals = makeDeals(10, { prefix: 'v', start: new Date('2025-04-01T00:00:00Z') }).map((d, i) => ({ ...d, visit_id: String(5000 + i) }));
    h.service.script = null;
    const fixed = await h.run();
    await settle();
    expect(receiver.posts).toHaveLength(4);
    expect(receiver.posts[3].body).toMatchObject({ event: 'recovered', run_id: fixed.runId });
    expect(receiver.posts[3].body.message).toContain('without_visit_share, skipped_share no longer hold');
    expect((await store.alerts.active()).map((s) => s.event)).toEqual(['rejected_share']);
  });

  it('no_success_for: counted across downtime at start-up, once, and recovered by a successful run', async () => {
    await start({ events: ['no_success_for', 'recovered'], no_success_for: '6h' }, { schedule: '0 * * * *' });
    const longAgo = new Date(Date.now() - 30 * 3_600_000).toISOString();
    await store.connections.upsert({ id: 'demo', connector: 'memory', settings: {}, schedule: '0 * * * *', paused: false, created_at: longAgo, updated_at: longAgo });
    evaluator.start(h.sync.events);
    await settle();
    expect(receiver.posts).toHaveLength(1);
    expect(receiver.posts[0].body).toMatchObject({ event: 'no_success_for', connection: 'demo', run_id: null, counters: null });
    expect(receiver.posts[0].body.message).toBe(`demo: no successful run yet since ${longAgo} (alert after 6h)`);
    await evaluator.check();
    await settle();
    expect(receiver.posts).toHaveLength(1);

    h.source.deals = makeDeals(2);
    const run = await h.run();
    await settle();
    expect(receiver.posts).toHaveLength(2);
    expect(receiver.posts[1].body).toMatchObject({ event: 'recovered', run_id: run.runId });
    expect(receiver.posts[1].body.message).toContain('no_success_for no longer holds');
    await evaluator.check();
    await settle();
    expect(receiver.posts).toHaveLength(2);
  });

  it('a receiver that is down is retried with backoff; the run is not held up nor failed', async () => {
    await start({ events: ['run_failed'] });
    evaluator.start(h.sync.events);
    receiver.failNext = [503, 502, 500];
    h.source.deals = makeDeals(2);
    h.source.beforePage = () => {
      throw new Error('CRM down');
    };
    const started = Date.now();
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toContain('CRM down');
    await evaluator.settled();
    expect(receiver.posts).toHaveLength(0);
    await dispatcher.idle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(50 + 100 + 200);
    expect(receiver.posts).toHaveLength(1);
    const { rows } = await store.alerts.deliveries({ alertId: 'ops' }, { limit: 10, offset: 0 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: 'run_failed', status: 'sent', attempts: 4, last_error: expect.stringContaining('HTTP 500') });
    expect(logger.lines.filter((l) => l.startsWith('warn') && l.includes('attempt'))).toHaveLength(3);

    // a receiver that stays down: given up after the attempts, recorded as failed, the next run is unaffected
    receiver.failNext = Array(20).fill(503);
    await evaluator.stop();
    await store.alerts.end({ alertId: 'ops', connectionId: 'demo', event: 'run_failed' });
    evaluator = new AlertEvaluator(h.config.alerts, h.config.connections, store, dispatcher, logger, { checkIntervalMs: 60_000, statusUrl: STATUS_URL });
    evaluator.start(h.sync.events);
    expect((await h.run()).status).toBe('failed');
    await settle();
    const latest = (await store.alerts.deliveries({}, { limit: 1, offset: 0 })).rows[0];
    expect(latest).toMatchObject({ status: 'failed', attempts: 6, last_error: expect.stringContaining('HTTP 503') });
    expect(logger.lines.some((l) => l.startsWith('error') && l.includes('not delivered after 6 attempt(s): HTTP 503'))).toBe(true);
  });

  it('a delivery that failed is not a send: tried again at a later check (backoff), then quiet until `repeat`; its recovered too', async () => {
    await start({ events: ['run_failed', 'recovered'], repeat: '24h' }, { checkIntervalMs: 100, retry: { baseMs: 400, maxMs: 800 } });
    const key = { alertId: 'ops', connectionId: 'demo', event: 'run_failed' };
    // the receiver refuses every attempt of the first delivery (6), then of its first retry (6): two failures in a row
    receiver.failNext = Array(12).fill(503);
    h.source.deals = makeDeals(2);
    h.source.beforePage = () => {
      throw new Error('CRM down');
    };
    evaluator.start(h.sync.events);
    expect((await h.run()).status).toBe('failed');
    // every attempt failed: not counted as sent, tried again after the backoff (400 ms), not after `repeat` (24 h)
    const failed = await eventually(async () => {
      const state = await store.alerts.state(key);
      return (state as { delivery_failures?: number } | null)?.delivery_failures ? state : null;
    }, 5_000);
    expect(receiver.posts).toHaveLength(0);
    expect(failed).toMatchObject({ active: true, last_sent_at: null, delivery_failures: 1, last_error: expect.stringContaining('HTTP 503') });
    expect(Date.parse(failed!.retry_at!) - Date.now()).toBeLessThanOrEqual(400);
    // the checks go on: the retry fails too, the next one (after 800 ms) is delivered
    await receiver.waitFor(1, 8_000);
    await settle();
    expect(receiver.posts[0].body).toMatchObject({ event: 'run_failed', connection: 'demo' });
    // the first message nobody got: sent as the alert, not as a reminder of it
    expect(receiver.posts[0].body.message).toMatch(/^demo: run \d+ failed: .*CRM down/);
    const delivered = await store.alerts.state(key);
    expect(delivered).toMatchObject({ active: true, delivery_failures: 0, retry_at: null, last_error: null });
    expect(delivered!.last_sent_at).toEqual(expect.stringMatching(/^\d{4}-/));
    const deliveries = (await store.alerts.deliveries({ alertId: 'ops' }, { limit: 10, offset: 0 })).rows;
    expect(deliveries.map((d) => d.status)).toEqual(['sent', 'failed', 'failed']);

    // delivered: nothing more while the condition lasts, however many checks pass (repeat is 24 h)
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await h.run()).status).toBe('failed');
    await settle();
    expect(receiver.posts).toHaveLength(1);

    // recovered, its delivery failing: tried again too, once delivered never again
    receiver.failNext = Array(6).fill(503);
    h.source.beforePage = undefined;
    expect((await h.run()).status).toBe('succeeded');
    await receiver.waitFor(2, 8_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await settle();
    expect(receiver.posts).toHaveLength(2);
    expect(receiver.posts[1].body).toMatchObject({ event: 'recovered', connection: 'demo' });
    expect(receiver.posts[1].body.message).toMatch(/run_failed no longer holds/);
  }, 30_000);
});

/** Polls `probe` until it returns a value, or fails after `timeoutMs`. */
async function eventually<T>(probe: () => Promise<T | null | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('alerts: run conditions', () => {
  it("cuts a run's very long error so a chat accepts the message", () => {
    const run = { runId: 3, connectionId: 'sheet', status: 'failed', error: 'x'.repeat(60_000), streams: {}, counters: { processed: 0 } };
    const [failed] = runConditions(run as never, new AlertConfig());
    expect(failed.event).toBe('run_failed');
    expect(failed.message.length).toBeLessThan(MAX_ERROR_CHARS + 200);
    expect(failed.message).toMatch(/^sheet: run 3 failed: x+… \(60000 characters; the whole error is on the status page\)$/);
  });
});
