import { RunTriggerService } from '../../src/application/runs/run-trigger.service';
import { RunInProgressError } from '../../src/engine/engine-errors';
import { RunSummary } from '../../src/engine/engine-types';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

/** The one trigger path against a real engine: a SQLite store, a loopback fake service, the memory connector. */
describe('RunTriggerService: one path for every trigger', () => {
  let h: EngineHarness;
  let triggers: RunTriggerService;
  const finished: RunSummary[] = [];
  let running = 0;
  let mostAtOnce = 0;

  beforeEach(async () => {
    h = await new EngineHarness({ batchSize: 10 }).start();
    h.source.deals = makeDeals(40);
    h.service.delayMs = 20;
    triggers = new RunTriggerService(h.sync);
    finished.length = 0;
    running = 0;
    mostAtOnce = 0;
    h.sync.events.on('finished', (summary: RunSummary) => finished.push(summary));
    const start = h.sync.start.bind(h.sync);
    // counts the runs going at once, through the engine's own start (what every trigger reaches)
    h.sync.start = async (...args) => {
      const started = await start(...args);
      mostAtOnce = Math.max(mostAtOnce, ++running);
      void started.done.finally(() => running--);
      return started;
    };
  });

  afterEach(async () => {
    triggers.onModuleDestroy();
    await h.stop();
  });

  async function until(check: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('refuse: a run going is RunInProgressError naming it (the admin API answers 409, the CLI says so)', async () => {
    const first = await triggers.start(h.connectionId, 'admin', { kind: 'sync', mode: 'incremental' });
    const refused = await triggers.start(h.connectionId, 'cli', { kind: 'sync', mode: 'full' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RunInProgressError);
    expect(refused).toMatchObject({ runId: first.runId });
    expect((await first.done).status).toBe('succeeded');
    expect(finished.map((s) => s.trigger)).toEqual(['admin']);
  });

  it('skip: a timer that fires during a run starts nothing and says which run is going', async () => {
    const first = await triggers.start(h.connectionId, 'admin', { kind: 'sync', mode: 'incremental' });
    const outcome = await triggers.trigger({ connectionId: h.connectionId, trigger: 'schedule', request: { kind: 'sync', mode: 'incremental' }, whenBusy: 'skip' });
    expect(outcome).toEqual({ status: 'skipped', reason: 'running', runningRunId: first.runId });
    await first.done;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(finished).toHaveLength(1);
    expect(triggers.queuedFollowUps(h.connectionId)).toEqual([]);
  });

  it('follow_up: calls during a run give exactly one run after it ends, never two at once, none lost', async () => {
    const first = await triggers.start(h.connectionId, 'admin', { kind: 'sync', mode: 'incremental' });
    const calls = await Promise.all(
      Array.from({ length: 5 }, () =>
        triggers.trigger({ connectionId: h.connectionId, trigger: 'webhook', request: { kind: 'sync', mode: 'incremental' }, whenBusy: 'follow_up' }),
      ),
    );
    expect(calls.map((c) => c.status)).toEqual(['queued', 'queued', 'queued', 'queued', 'queued']);
    expect(triggers.queuedFollowUps(h.connectionId)).toEqual([{ kind: 'sync', mode: 'incremental' }]);
    await first.done;
    await until(() => finished.length === 2);
    expect(finished.map((s) => [s.trigger, s.status])).toEqual([['admin', 'succeeded'], ['webhook', 'succeeded']]);
    expect(finished[1].streams.deals).toMatchObject({ read: 40, unchanged: 40 }); // a real run of its own
    expect(mostAtOnce).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(finished).toHaveLength(2); // exactly one follow-up
    expect(triggers.queuedFollowUps(h.connectionId)).toEqual([]);
  });

  it('follow_up: a scheduled tick that finds a webhook call waiting joins it (joined); both learn when that one run starts', async () => {
    const first = await triggers.start(h.connectionId, 'admin', { kind: 'sync', mode: 'incremental' });
    const call = (trigger: 'webhook' | 'schedule', scheduledAt?: Date) =>
      triggers.trigger({ connectionId: h.connectionId, trigger, request: { kind: 'sync', mode: 'incremental', scheduledAt }, whenBusy: 'follow_up' });
    const webhook = await call('webhook');
    const tick = await call('schedule', new Date());
    expect(webhook).toMatchObject({ status: 'queued', joined: false });
    expect(tick).toMatchObject({ status: 'queued', joined: true });
    if (webhook.status !== 'queued' || tick.status !== 'queued') throw new Error('not queued');
    const [webhookRun, tickRun] = await Promise.all([webhook.started, tick.started]);
    expect(webhookRun).toEqual(expect.any(Number));
    expect(tickRun).toBe(webhookRun);
    await first.done;
    await until(() => finished.length === 2);
    // the webhook's call is kept: a tick may be dropped (another daemon ran it), a webhook's call may not
    expect(finished.map((s) => s.trigger)).toEqual(['admin', 'webhook']);
  });

  it('follow_up with nothing going starts at once', async () => {
    const outcome = await triggers.trigger({ connectionId: h.connectionId, trigger: 'webhook', request: { kind: 'sync', mode: 'incremental' }, whenBusy: 'follow_up' });
    expect(outcome.status).toBe('started');
    if (outcome.status === 'started') expect((await outcome.done).trigger).toBe('webhook');
  });

  it('a follow-up of a run held by another process (its lease) starts once that one ends', async () => {
    const other = h.newSyncService();
    const held = await other.start(h.connectionId, { mode: 'incremental', trigger: 'schedule' });
    const outcome = await triggers.trigger({ connectionId: h.connectionId, trigger: 'webhook', request: { kind: 'sync', mode: 'incremental' }, whenBusy: 'follow_up' });
    expect(outcome.status).toBe('queued');
    await held.done;
    await other.shutdown(1000);
    await until(() => finished.some((s) => s.trigger === 'webhook'));
    expect(finished.filter((s) => s.trigger === 'webhook')).toHaveLength(1);
  });
});
