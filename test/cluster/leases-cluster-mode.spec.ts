/**
 * The two-daemon tests of leases.spec.ts, in cluster mode (`cluster.redis`): two daemons in this process
 * (support/queue-daemon.ts: each its engine, run queue, trigger path, scheduler and BullMQ worker) on one
 * PostgreSQL store and one Redis. Cluster mode has no leases and no heartbeats: a tick is one job of a job
 * scheduler, whose run job is named after it; a connection has one run at a time by its run jobs' deduplication id;
 * a dead daemon's job stalls (its lock is no longer renewed) and another daemon takes it over.
 *
 * Lease mode's cases and their counterparts here:
 * - a tick already run does not run again → a tick job delivered again (BullMQ delivers at least once) to the
 *   other daemon asks for the same run job, which ran: no second run;
 * - the same tick fired by two daemons at once runs once → both daemons keep the same job scheduler (one job per
 *   tick), and one tick job handled by both at once makes one run;
 * - a trigger while another daemon runs is refused naming that run; admin runs claim no tick → the same;
 * - a daemon whose heartbeat stopped loses its lease → a daemon that stops renewing its job's lock loses the job
 *   within `cluster.stalled_after`, and one that renews it keeps it however long its run goes;
 * - a killed daemon's run is resumed from the last checkpoint → the same, by the daemon that took the job over.
 * Not carried over: the dead-pid shortcut (a lease held by a gone process of this machine is taken at once) and a
 * lease held by a holder without a daemon row (a CLI run elsewhere) have no meaning here: there is no lease, a CLI
 * run is a job that a daemon runs, and a dead daemon is noticed by its job's lock alone, on any machine, within
 * `stalled_after` (the fourth test).
 *
 * A dead daemon is played by a bare BullMQ worker that takes the run job (`getNextJob`, as a daemon's worker takes
 * one) and runs it through daemon A's trigger path: its lock lives as long as the test renews it.
 */
import { Logger } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { RunJobData, QUEUE_PREFIX, RUN_QUEUE } from '../../src/cluster/run-queue';
import { machineKey } from '../../src/engine/engine-options';
import { redisConnectionOptions } from '../../src/redis/redis-connection';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';
import { describeCluster, suiteRedis } from '../support/redis-server';
import { QueueDaemon } from './support/queue-daemon';

const STALLED_AFTER_MS = 3_000; // cluster.stalled_after: locks of 1 s, a stalled check every 750 ms
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Row {
  id: number;
  status: string;
  holder: string;
  trigger: string;
  started_at: string;
}

describeCluster('cluster mode: two daemons on one PostgreSQL and one Redis (the lease tests, without leases)', () => {
  let h: EngineHarness;
  let redis: { url: string; dispose: () => Promise<void> };
  let a: QueueDaemon;
  let b: QueueDaemon;
  let taker: Worker | undefined;

  // the scheduler's and the worker's Nest loggers: the test's output keeps their warnings (a stalled job) and errors
  beforeAll(() => Logger.overrideLogger(['warn', 'error']));

  beforeEach(async () => {
    redis = await suiteRedis(1); // emptied
    h = await new EngineHarness({ driver: 'postgres', batchSize: 10, concurrency: 1 }).start();
    h.config.cluster.redis = redis.url;
    h.config.cluster.stalled_after = `${STALLED_AFTER_MS / 1000}s`;
    h.source.deals = makeDeals(20);
    a = new QueueDaemon(h);
    b = new QueueDaemon(h);
    await a.connections.syncFromConfig();
  });
  afterEach(async () => {
    await taker?.close(true);
    taker = undefined;
    await Promise.all([a.stop(), b.stop()]);
    await h.stop();
    await redis.dispose();
  });

  const runs = () => h.query<Row[]>(`SELECT id, status, holder, trigger, started_at FROM run ORDER BY id`);
  const waitFor = async (what: string, ok: (rows: Row[]) => boolean, ms = 15_000) => {
    for (const until = Date.now() + ms; ; await sleep(50)) {
      const rows = await runs();
      if (ok(rows)) return rows;
      if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms; runs: ${JSON.stringify(rows)}`);
    }
  };
  const ended = (n: number) => (rows: Row[]) => rows.length === n && rows.every((r) => r.status !== 'running');
  const tick = { connectionId: 'demo', flow: 'sync' };

  /** Daemon A takes the connection's run job and starts its run (as its worker would); the lock is left to the test. */
  async function runOnA(): Promise<{ job: Job<RunJobData>; runId: number; done: Promise<unknown> }> {
    await a.queue.addRun({ connectionId: h.connectionId, trigger: 'schedule', request: { kind: 'sync', mode: 'incremental' } }, { followUp: false });
    taker = new Worker(RUN_QUEUE, null, { prefix: QUEUE_PREFIX, connection: redisConnectionOptions(redis.url), lockDuration: STALLED_AFTER_MS / 3 });
    const job = (await taker.getNextJob('daemon-a'))!;
    const { runId, done } = await a.triggers.runHere(job.data as never);
    await job.updateProgress({ runId });
    return { job, runId, done };
  }

  /** What a SIGKILL leaves: the checkpoints written so far, the run row 'running', held by a gone process. */
  async function killA(done: Promise<unknown>): Promise<void> {
    await a.sync.shutdown(5_000); // stands in for the kill: the run stops where it is
    await done;
    await h.query(`UPDATE run SET status = 'running', finished_at = NULL, holder = ?`, [`${machineKey()}:999999:dead`]);
  }

  it('a tick job delivered again to the other daemon, after its run, runs nothing again; the next tick runs', async () => {
    a.startWorker();
    await a.queue.triggers.add('tick', tick, { jobId: 'tick-of-demo-1767607200000' });
    await waitFor('the tick ran', ended(1));
    for (;;) if ((await a.queue.triggers.getJobState('tick-of-demo-1767607200000')) === 'completed') break; else await sleep(50);
    await a.worker.stop(); // the other daemon gets it
    b.startWorker();
    await (await b.queue.triggers.getJob('tick-of-demo-1767607200000'))!.remove();
    await b.queue.triggers.add('tick', tick, { jobId: 'tick-of-demo-1767607200000' });
    for (;;) if ((await b.queue.triggers.getJobState('tick-of-demo-1767607200000')) === 'completed') break; else await sleep(50);
    await sleep(300);
    expect((await runs()).map((r) => r.status)).toEqual(['succeeded']);
    await b.queue.triggers.add('tick', tick, { jobId: 'tick-of-demo-1767607260000' });
    const rows = await waitFor('the next tick ran', ended(2));
    expect(rows.map((r) => [r.status, r.holder])).toEqual([['succeeded', a.sync.holderId], ['succeeded', b.sync.holderId]]);
  });

  it('the same tick on two daemons at once runs once: one job scheduler for both, one run per tick job', async () => {
    h.service.delayMs = 200;
    a.startWorker();
    b.startWorker();
    // one tick job handled by both daemons at once, and once more while its run goes (taken over meanwhile)
    const both = await Promise.allSettled([a.scheduler.queuedTick('demo', 'sync', 'tick-x'), b.scheduler.queuedTick('demo', 'sync', 'tick-x')]);
    expect(both.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect((await runs()).map((r) => r.status)).toEqual(['running']);
    await b.scheduler.queuedTick('demo', 'sync', 'tick-x');
    h.service.delayMs = 0;
    await waitFor('the tick ran', ended(1));
    await sleep(300);
    expect(await runs()).toHaveLength(1);
    // both daemons keep the connection's schedule, every second: one job scheduler, one run per tick
    h.config.connections[0].schedule = '* * * * * *';
    await a.connections.syncFromConfig();
    await Promise.all([a.scheduler.syncSchedulers(), b.scheduler.syncSchedulers()]);
    expect([...(await b.queue.schedulers()).keys()]).toEqual(['connection:demo']);
    await sleep(3_500);
    await a.queue.removeScheduler('connection:demo');
    for (const until = Date.now() + 10_000; Object.values(await a.queue.triggers.getJobCounts('active', 'waiting')).some((n) => n > 0); await sleep(50)) {
      if (Date.now() > until) throw new Error('tick jobs still going');
    }
    const tickJobs = (await a.queue.triggers.getJobs(['completed'])).filter((j) => j.name === 'tick');
    expect(tickJobs.length).toBeGreaterThanOrEqual(2);
    const rows = await waitFor('the ticks ran', ended(tickJobs.length + 1));
    expect(rows.map((r) => [r.trigger, r.status])).toEqual(rows.map(() => ['schedule', 'succeeded']));
  });

  it('a trigger while the other daemon runs the connection is refused with that run id; admin runs claim no tick', async () => {
    h.service.delayMs = 30;
    a.startWorker();
    b.startWorker();
    const { runId, done } = await a.triggers.start(h.connectionId, 'admin', { kind: 'sync', mode: 'incremental' });
    await expect(b.triggers.start(h.connectionId, 'admin', { kind: 'sync', mode: 'full' })).rejects.toMatchObject({ name: 'RunInProgressError', runId });
    expect((await done).status).toBe('succeeded');
    await b.scheduler.queuedTick(h.connectionId, 'sync', 'tick-after-admin');
    const rows = await waitFor('the tick ran', ended(2));
    expect(rows.map((r) => [r.trigger, r.status])).toEqual([['admin', 'succeeded'], ['schedule', 'succeeded']]);
  });

  it('a daemon that renews its job keeps it past stalled_after; one that stops renewing loses it within stalled_after', async () => {
    h.source.deals = makeDeals(60);
    h.service.delayMs = 1_000; // 6 batches one after another: a run of 6 s
    const { job, runId, done } = await runOnA();
    b.startWorker();
    const renew = setInterval(() => void job.extendLock('daemon-a', STALLED_AFTER_MS / 3).catch(() => undefined), 250);
    try {
      await sleep(STALLED_AFTER_MS + 1_000);
      // alive: B neither took the job nor runs the connection, and refuses a trigger naming A's run
      expect((await runs()).map((r) => [r.id, r.status, r.holder])).toEqual([[runId, 'running', a.sync.holderId]]);
      await expect(b.triggers.start(h.connectionId, 'admin', { kind: 'sync', mode: 'incremental' })).rejects.toMatchObject({ name: 'RunInProgressError', runId });
      h.service.delayMs = 0;
      await killA(done);
    } finally {
      clearInterval(renew); // the moment A dies: its lock is no longer renewed
    }
    const diedAt = Date.now();
    const rows = await waitFor('the job taken over', ended(2), 15_000);
    expect(rows.map((r) => [r.status, r.holder])).toEqual([['interrupted', `${machineKey()}:999999:dead`], ['succeeded', b.sync.holderId]]);
    // the worker's worst case is 2.5 s of the 3 (a 1-s lock, two checks 750 ms apart); a second for a loaded machine
    expect(Date.parse(rows[1].started_at) - diedAt).toBeLessThanOrEqual(STALLED_AFTER_MS + 1_000);
  });

  it('a daemon killed mid-run: the other takes its job over and resumes from the last checkpoint', async () => {
    h.source.deals = makeDeals(60);
    h.service.delayMs = 25;
    const { done } = await runOnA();
    while (h.service.orders.size < 20) await sleep(10);
    await killA(done);
    const acknowledged = h.service.orders.size;
    h.service.orderDeliveries.length = 0;
    h.service.delayMs = 0;
    b.startWorker();
    const rows = await waitFor('the job taken over', ended(2), 15_000);
    expect(rows.map((r) => [r.status, r.holder])).toEqual([['interrupted', `${machineKey()}:999999:dead`], ['succeeded', b.sync.holderId]]);
    expect(h.service.orders.size).toBe(60);
    expect(h.service.orderDeliveries).toHaveLength(60 - acknowledged);
  });
});
