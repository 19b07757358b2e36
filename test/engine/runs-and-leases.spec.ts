import { ChildProcess, spawn } from 'child_process';
import { readFileSync } from 'fs';
import { machineKey } from '../../src/engine/engine-options';
import { RunInProgressError, UnknownConnectionError } from '../../src/engine/engine-errors';
import { ProgressEvent, RunSummary } from '../../src/engine/engine-types';
import { describeStores } from '../support/store-drivers';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

describeStores('engine: runs, leases, shutdown, preview', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('two starts at once: one runs, the other gets RunInProgressError with the run id', async () => {
    h = await new EngineHarness({ driver, batchSize: 10 }).start();
    h.source.deals = makeDeals(50);
    h.service.delayMs = 20;
    const results = await Promise.allSettled([
      h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' }),
      h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'schedule' }),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ runId: number; done: Promise<RunSummary> }>[];
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect(refused[0].reason).toBeInstanceOf(RunInProgressError);
    expect(h.sync.isRunning(h.connectionId)).toBe(true);
    await expect(h.sync.start(h.connectionId, { mode: 'full', trigger: 'admin' })).rejects.toMatchObject({ runId: ok[0].value.runId });
    expect((await ok[0].value.done).status).toBe('succeeded');
    expect(h.sync.isRunning(h.connectionId)).toBe(false);
  });

  it('a second engine on the same database (another holder) cannot run the connection while the lease is held', async () => {
    h = await new EngineHarness({ driver, batchSize: 10 }).start();
    h.source.deals = makeDeals(40);
    h.service.delayMs = 30;
    const other = h.newSyncService();
    const { runId, done } = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' });
    await expect(other.start(h.connectionId, { mode: 'incremental', trigger: 'admin' })).rejects.toMatchObject({ name: 'RunInProgressError', runId });
    await done;
    const next = await other.start(h.connectionId, { mode: 'incremental', trigger: 'admin' });
    expect((await next.done).status).toBe('succeeded');
  });

  it('an expired lease or one held by a dead local process is taken over', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(3);
    await h.query(`INSERT INTO lease (connection_id, holder, run_id, expires_at) VALUES (?, ?, NULL, ?)`, [
      h.connectionId, `${machineKey()}:999999:dead`, new Date(Date.now() + 60_000).toISOString(),
    ]);
    expect((await h.run()).status).toBe('succeeded');
    await h.query(`UPDATE lease SET holder = 'elsewhere:1:x', expires_at = ?`, [new Date(Date.now() + 60_000).toISOString()]);
    await expect(h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' })).rejects.toBeInstanceOf(RunInProgressError);
    await h.query(`UPDATE lease SET expires_at = ?`, [new Date(Date.now() - 1000).toISOString()]);
    expect((await h.run()).status).toBe('succeeded');
  });

  it('a holder that is a zombie (killed, not yet reaped) is dead: its lease is taken over at once', async () => {
    h = await new EngineHarness({ driver, engine: { endingHolderWaitMs: 0 } }).start();
    h.source.deals = makeDeals(3);
    const zombie = await startZombie();
    try {
      await holdLease(h, `${machineKey()}:${zombie.pid}:killed`, null);
      expect((await h.run()).status).toBe('succeeded');
    } finally {
      zombie.parent.kill('SIGKILL');
    }
  });

  it('a refusal naming a run of a process of this machine that is ending waits for it; a live run is refused at once', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(3);
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await h.query(
        `INSERT INTO run (connection_id, mode, trigger, holder, started_at, status, streams) VALUES (?, 'incremental', 'cli', ?, ?, 'running', '{}')`,
        [h.connectionId, `${machineKey()}:${holder.pid}:cli`, new Date().toISOString()],
      );
      const runs = await h.query(`SELECT MAX(id) AS id FROM run`);
      const runId = Number(runs[0].id);
      await holdLease(h, `${machineKey()}:${holder.pid}:cli`, runId);
      const t0 = Date.now();
      await expect(h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'cli' })).rejects.toMatchObject({ name: 'RunInProgressError', runId });
      expect(Date.now() - t0).toBeLessThan(1000); // its run goes on: no waiting

      await h.query(`UPDATE run SET status = 'succeeded', finished_at = ? WHERE id = ?`, [new Date().toISOString(), runId]);
      const released = delay(400).then(() => h.query(`UPDATE lease SET holder = '', run_id = NULL`));
      const started = Date.now();
      const next = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'cli' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      await released;
      expect((await next.done).status).toBe('succeeded');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('unknown connection and bad since are refused at start', async () => {
    h = await new EngineHarness({ driver }).start();
    await expect(h.sync.start('nope', { mode: 'incremental', trigger: 'cli' })).rejects.toBeInstanceOf(UnknownConnectionError);
    await expect(h.sync.start(h.connectionId, { mode: 'since', since: '31.02.2025', trigger: 'cli' })).rejects.toThrow(/since: "31.02.2025" is not a date/);
  });

  it('recoverInterruptedRuns marks runs of dead holders interrupted', async () => {
    h = await new EngineHarness({ driver }).start();
    const dead = `${machineKey()}:999999:dead`;
    await h.query(
      `INSERT INTO run (connection_id, mode, trigger, holder, started_at, status, streams) VALUES (?, 'incremental', 'schedule', ?, ?, 'running', '{}')`,
      [h.connectionId, dead, new Date().toISOString()],
    );
    const ids = await h.sync.recoverInterruptedRuns();
    expect(ids).toHaveLength(1);
    const rows = await h.query(`SELECT status, finished_at FROM run WHERE id = ?`, [ids[0]]);
    expect(rows[0].status).toBe('interrupted');
    expect(rows[0].finished_at).toBeTruthy();
    expect(h.logger.lines).toContainEqual(expect.stringContaining(`run ${ids[0]} was left running by a process that ended: marked interrupted`));
  });

  it('shutdown lets batches in flight finish and checkpoint, marks the run interrupted; the next run continues', async () => {
    h = await new EngineHarness({ driver, batchSize: 10, concurrency: 2, source: { pageSize: 10 } }).start();
    h.source.deals = makeDeals(200);
    h.service.delayMs = 40;
    const { done } = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' });
    while (h.service.orders.size < 20) await new Promise((r) => setTimeout(r, 10));
    const t0 = Date.now();
    await h.sync.shutdown(10_000);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const summary = await done;
    expect(summary.status).toBe('interrupted');
    const acknowledged = h.service.orders.size;
    expect(acknowledged).toBeLessThan(200);
    const states = await h.query(`SELECT COUNT(*) AS n FROM record_state WHERE stream = 'deals'`);
    expect(Number(states[0].n)).toBe(acknowledged);

    h.sync = h.newSyncService();
    h.service.delayMs = 0;
    h.service.orderDeliveries.length = 0;
    const next = await h.run();
    expect(next.status).toBe('succeeded');
    expect(h.service.orders.size).toBe(200);
    expect(h.service.orderDeliveries).toHaveLength(200 - acknowledged);
  });

  it('shutdown dispatches no new batch: only the batches in flight finish, even with a whole page queued', async () => {
    h = await new EngineHarness({ driver, batchSize: 10, concurrency: 2, source: { pageSize: 200 } }).start();
    h.source.deals = makeDeals(200);
    h.service.delayMs = 150;
    const { done } = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' });
    while (h.service.orderDeliveries.length < 10) await new Promise((r) => setTimeout(r, 5));
    await h.sync.shutdown(10_000);
    const summary = await done;
    expect(summary.status).toBe('interrupted');
    // one page of 20 batches was read; at most the 2 batches in flight at the stop reached the service
    expect(h.service.orderDeliveries.length).toBeLessThanOrEqual(20);
    const states = await h.query(`SELECT COUNT(*) AS n FROM record_state WHERE stream = 'deals'`);
    expect(Number(states[0].n)).toBe(h.service.orders.size);
  });

  it('emits progress and finished events and logs a one-line summary', async () => {
    h = await new EngineHarness({ driver, batchSize: 10, engine: { progressIntervalMs: 0 } }).start();
    h.source.deals = makeDeals(30);
    const progress: ProgressEvent[] = [];
    const finished: RunSummary[] = [];
    h.sync.events.on('progress', (e) => progress.push(e));
    h.sync.events.on('finished', (s) => finished.push(s));
    const run = await h.run();
    expect(progress.length).toBeGreaterThan(2);
    expect(progress[progress.length - 1]).toMatchObject({ connectionId: 'demo', runId: run.runId, stream: 'deals', read: 30, sent: 30 });
    expect(finished).toEqual([run]);
    const line = h.logger.lines.find((l) => l.includes(`run ${run.runId} demo succeeded:`));
    expect(line).toMatch(/\[demo run \d+\] run \d+ demo succeeded: .*deals read 30 · sent 30 · unchanged 0 · rejected 0 · skipped_by_status 0/);
    expect(h.logger.lines.every((l) => l.includes('[demo'))).toBe(true);
  });

  it('preview shows records, exact payloads and verdicts; nothing is sent, no cursor moves', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(8);
    h.source.deals[1].custom_fields = { note: 'y'.repeat(1200) };
    const preview = await h.sync.preview(h.connectionId, { stream: 'deals', limit: 3 });
    expect(preview.streams).toHaveLength(1);
    const [first, second] = preview.streams[0].records;
    expect(preview.streams[0].records).toHaveLength(3);
    expect(first.payload).toMatchObject({ id: 'd1', date_create: '2025-03-10 09:00:00+0000' });
    expect(first.problems).toEqual([]);
    expect(second.problems[0]).toMatchObject({ field: 'fields.note' });
    expect(h.service.calls).toHaveLength(0);
    expect(await h.cursor()).toBeNull();
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function holdLease(h: EngineHarness, holder: string, runId: number | null): Promise<void> {
  await h.query(`DELETE FROM lease WHERE connection_id = ?`, [h.connectionId]);
  await h.query(`INSERT INTO lease (connection_id, holder, run_id, expires_at) VALUES (?, ?, ?, ?)`, [
    h.connectionId, holder, runId, new Date(Date.now() + 60_000).toISOString(),
  ]);
}

/** A process that has exited and is not reaped: its parent (a shell turned into `sleep`) never waits for it. */
async function startZombie(): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
  for (let i = 0; i < 100 && !/\) Z /.test(readStat(pid)); i++) await delay(20);
  expect(readStat(pid)).toMatch(/\) Z /);
  process.kill(pid, 0); // it still answers signal 0: only its state tells it is dead
  return { pid, parent };
}

function readStat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}
