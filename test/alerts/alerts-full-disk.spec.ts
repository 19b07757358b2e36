import { join } from 'path';
import { AlertDispatcher } from '../../src/alerts/alert-dispatcher';
import { AlertEvaluator } from '../../src/alerts/alert-evaluator';
import { alertScrubber } from '../../src/alerts/alert-secrets';
import { AlertConfig } from '../../src/config/alert-config';
import type { RunSummary } from '../../src/engine';
import { StoreRepositories } from '../../src/store/store-repositories';
import { querySqlite } from '../faults/support/sqlite-file';
import { HttpReceiver } from '../support/alert-receivers';
import { CapturingLogger, EngineHarness } from '../support/engine-harness';
import { describeFullDisk, FullDisk } from '../support/full-disk';
import { makeDeals } from '../support/memory-connector';

/**
 * The store's disk fills up (a real tmpfs, SQLite answering SQLITE_FULL): the very failure alerts exist for. The
 * conditions cannot be recorded in `alert_state`, and yet each is alerted, once (repeat holds in memory), and the
 * store takes what was sent once the disk has room, so a later run's recovered follows as always.
 */
describeFullDisk('alerts: the store cannot be written (SQLITE_FULL)', () => {
  let disk: FullDisk;
  let h: EngineHarness;
  let receiver: HttpReceiver;
  let store: StoreRepositories;
  let dispatcher: AlertDispatcher;
  let evaluator: AlertEvaluator;
  let logger: CapturingLogger;

  beforeEach(async () => {
    disk = FullDisk.mount(16)!;
    receiver = new HttpReceiver();
    await receiver.start();
    h = await new EngineHarness({ dataDir: join(disk.dir, 'data'), batchSize: 25 }).start();
    h.config.connections[0].schedule = '0 * * * *';
    h.config.alerts = [Object.assign(new AlertConfig(), {
      id: 'ops', type: 'webhook', url: `${receiver.url}/hook`, events: ['run_failed', 'no_success_for', 'recovered'], no_success_for: '6h', repeat: '24h',
    })];
    store = new StoreRepositories(h.dataSource);
    logger = new CapturingLogger();
    dispatcher = new AlertDispatcher(store.alerts, { logger, scrub: alertScrubber(h.config) }, { backoff: { baseMs: 20, maxMs: 50, jitter: false }, timeoutMs: 2000 });
    evaluator = new AlertEvaluator(h.config.alerts, h.config.connections, store, dispatcher, logger, { checkIntervalMs: 60_000, statusUrl: 'http://127.0.0.1:3000/' });
  });

  afterEach(async () => {
    disk?.free();
    await evaluator?.stop();
    await dispatcher?.stop(100);
    await h?.stop();
    await receiver?.stop();
    disk?.unmount();
  });

  it('a run failing with SQLITE_FULL and no_success_for are alerted once each; recorded once the disk has room; then one recovered', async () => {
    // known for 30 h without a successful run; the evaluator hears the engine's runs
    const longAgo = new Date(Date.now() - 30 * 3_600_000).toISOString();
    await store.connections.upsert({ id: 'demo', connector: 'memory', settings: {}, schedule: '0 * * * *', paused: false, created_at: longAgo, updated_at: longAgo });
    const evaluations: Promise<void>[] = [];
    const finished: RunSummary[] = [];
    h.sync.events.on('finished', (summary) => {
      finished.push(summary);
      evaluations.push(evaluator.evaluateRun(summary));
    });
    const settle = async () => {
      await Promise.all(evaluations);
      await evaluator.settled();
      await dispatcher.idle();
    };

    // the disk fills up while the run reads: its checkpoint cannot be written, the run fails
    h.source.deals = makeDeals(300);
    h.source.pageSize = 50;
    h.source.beforePage = (_stream, index) => {
      if (index === 1) disk.fill();
    };
    const failed = await h.run();
    expect({ status: failed.status, error: failed.error }).toEqual({ status: 'failed', error: expect.stringMatching(/SQLITE_FULL/) });
    await settle();
    expect(receiver.posts.map((p) => p.body.event)).toEqual(['run_failed']);
    expect(receiver.posts[0].body.message).toMatch(/^demo: run \d+ failed: .*SQLITE_FULL/);

    // the timer's check: no success for 30 h, alerted though the store refuses it too
    await evaluator.check();
    await settle();
    expect(receiver.posts.map((p) => p.body.event)).toEqual(['run_failed', 'no_success_for']);

    // more checks and the same failure again, while the disk stays full: nothing twice (repeat is 24 h)
    for (let i = 0; i < 3; i++) await evaluator.check();
    evaluations.push(evaluator.evaluateRun(finished[0]));
    await settle();
    expect(receiver.posts).toHaveLength(2);
    expect((await evaluator.active()).map((s) => s.event).sort()).toEqual(['no_success_for', 'run_failed']);
    const file = join(h.dataDir, 'tracker-sync.sqlite');
    expect(await querySqlite(file, 'SELECT event FROM alert_state WHERE active = 1')).toEqual([]);
    expect(logger.lines.join('\n')).toMatch(/the store cannot record the alerts' state \(SQLITE_FULL/);

    // room again: the next check writes what was sent, and sends nothing
    disk.free();
    await evaluator.check();
    await settle();
    expect(receiver.posts).toHaveLength(2);
    const recorded = await querySqlite<{ event: string; last_sent_at: string | null }>(file, 'SELECT event, last_sent_at FROM alert_state WHERE active = 1 ORDER BY event');
    expect(recorded).toEqual([
      { event: 'no_success_for', last_sent_at: expect.stringMatching(/^\d{4}-/) },
      { event: 'run_failed', last_sent_at: expect.stringMatching(/^\d{4}-/) },
    ]);

    // a run succeeds: one recovered naming both
    h.source.beforePage = undefined;
    const fixed = await h.run();
    expect(fixed.status).toBe('succeeded');
    await settle();
    expect(receiver.posts.map((p) => p.body.event)).toEqual(['run_failed', 'no_success_for', 'recovered']);
    expect(receiver.posts[2].body.message).toMatch(/run_failed, no_success_for no longer hold/);
    expect(await querySqlite(file, 'SELECT event FROM alert_state WHERE active = 1')).toEqual([]);
  }, 60_000);

  it('runs that cannot even start (no run row: the store refused it) are alerted as run_failed, once; a run that succeeds later recovers it', async () => {
    evaluator.start(h.sync.events);
    await evaluator.settled();
    disk.fill();
    h.source.deals = makeDeals(3);
    await expect(h.run()).rejects.toThrow(/the store could not record the run: SQLITE_FULL/);
    await expect(h.run()).rejects.toThrow(/SQLITE_FULL/);
    await evaluator.settled();
    await dispatcher.idle();
    await evaluator.settled();
    expect(receiver.posts.map((p) => p.body.event)).toEqual(['run_failed']);
    expect(receiver.posts[0].body).toMatchObject({ connection: 'demo', run_id: null, counters: null });
    expect(receiver.posts[0].body.message).toMatch(/^demo: a run \(cli\) could not start: the store could not record the run: SQLITE_FULL: database or disk is full$/);

    disk.free();
    expect((await h.run()).status).toBe('succeeded');
    await evaluator.settled();
    await dispatcher.idle();
    expect(receiver.posts.map((p) => p.body.event)).toEqual(['run_failed', 'recovered']);
  }, 60_000);
});
