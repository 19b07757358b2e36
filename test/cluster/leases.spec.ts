import { hostname } from 'os';
import { RunInProgressError, ScheduledSlotTakenError } from '../../src/engine/engine-errors';
import { machineKey } from '../../src/engine/engine-options';
import { RunSummary } from '../../src/engine/engine-types';
import { isDeadLocalHolder } from '../../src/store/repositories/lease.store';
import { SyncService } from '../../src/engine/sync.service';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';
import { describeStores } from '../support/store-drivers';

const TICK = new Date('2026-01-05T10:00:00.000Z');
const NEXT_TICK = new Date('2026-01-05T10:01:00.000Z');
const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

/** Two daemons on one store = two SyncServices with their own holder ids. */
describeStores('cluster: leases and scheduled ticks across daemons', (driver) => {
  let h: EngineHarness;
  let other: SyncService;
  beforeEach(async () => {
    h = await new EngineHarness({ driver, batchSize: 10 }).start();
    h.source.deals = makeDeals(20);
    other = h.newSyncService();
  });
  afterEach(async () => {
    await other.shutdown(2000);
    await h.stop();
  });

  const tick = (sync: SyncService, at: Date) => sync.start(h.connectionId, { mode: 'incremental', trigger: 'schedule', scheduledAt: at });

  it('a tick that one daemon already ran (a fast run, over before the other fires) does not run again', async () => {
    const first = await tick(h.sync, TICK);
    expect((await first.done).status).toBe('succeeded');
    const late = await tick(other, TICK).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ScheduledSlotTakenError);
    expect((late as Error).message).toMatch(/scheduled run of 2026-01-05T10:00:00.000Z was already started/);
    const next = await tick(other, NEXT_TICK);
    expect((await next.done).status).toBe('succeeded');
    const runs = await h.query(`SELECT holder FROM run ORDER BY id`);
    expect(runs.map((r: { holder: string }) => r.holder)).toEqual([h.sync.holderId, other.holderId]);
  });

  it('the same tick fired by two daemons at once runs once', async () => {
    h.service.delayMs = 10;
    const results = await Promise.allSettled([tick(h.sync, TICK), tick(other, TICK)]);
    const started = results.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ done: Promise<RunSummary> }>[];
    expect(started).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(RunInProgressError);
    await started[0].value.done;
    const runs = await h.query(`SELECT COUNT(*) AS n FROM run`);
    expect(Number(runs[0].n)).toBe(1);
  });

  it('a trigger while another daemon runs the connection is refused with that run id; admin runs claim no tick', async () => {
    h.service.delayMs = 30;
    const { runId, done } = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' });
    await expect(other.start(h.connectionId, { mode: 'full', trigger: 'admin' })).rejects.toMatchObject({ name: 'RunInProgressError', runId });
    await done;
    expect((await (await tick(other, TICK)).done).status).toBe('succeeded');
  });

  it("a daemon whose heartbeat stopped loses its lease before expiry; a live one, or a holder without a daemon row, keeps it", async () => {
    const holder = 'far-away~0badcafe:4242:feedbeef';
    await h.query(`INSERT INTO lease (connection_id, holder, run_id, expires_at) VALUES (?, ?, NULL, ?)`, [h.connectionId, holder, inAMinute()]);
    // no daemon row (a CLI run elsewhere): only the expiry tells
    await expect(h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' })).rejects.toBeInstanceOf(RunInProgressError);
    const now = new Date().toISOString();
    await h.query(`INSERT INTO daemon (id, host, pid, started_at, heartbeat_at, running) VALUES (?, 'far-away', 4242, ?, ?, '[]')`, [holder, now, now]);
    await expect(h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' })).rejects.toBeInstanceOf(RunInProgressError);
    await h.query(`UPDATE daemon SET heartbeat_at = ?`, [new Date(Date.now() - 31_000).toISOString()]);
    const { done } = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' });
    expect((await done).status).toBe('succeeded');
  });

  it('the dead-pid shortcut never fires for another machine with the same host name', async () => {
    const sameNameElsewhere = `${hostname()}~00000000:999999:x`;
    expect(isDeadLocalHolder(sameNameElsewhere)).toBe(false);
    expect(isDeadLocalHolder(`${machineKey()}:999999:x`)).toBe(true);
    await h.query(`INSERT INTO lease (connection_id, holder, run_id, expires_at) VALUES (?, ?, NULL, ?)`, [h.connectionId, sameNameElsewhere, inAMinute()]);
    await expect(h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' })).rejects.toBeInstanceOf(RunInProgressError);
  });

  it('a daemon killed mid-run: another takes over at its next tick and resumes from the last checkpoint', async () => {
    h.source.deals = makeDeals(60);
    h.service.delayMs = 25;
    // the "killed" daemon: its run row and lease stay behind, held by a pid of this machine that is gone
    const dead = `${machineKey()}:999999:dead`;
    const { done } = await tick(h.sync, TICK);
    while (h.service.orders.size < 20) await new Promise((r) => setTimeout(r, 10));
    await h.sync.shutdown(5000); // stands in for the kill: the checkpoints written so far stay
    await done;
    await h.query(`UPDATE run SET status = 'running', finished_at = NULL, holder = ?`, [dead]);
    await h.query(`UPDATE lease SET holder = ?, expires_at = ?`, [dead, inAMinute()]);
    const acknowledged = h.service.orders.size;
    h.service.orderDeliveries.length = 0;
    h.service.delayMs = 0;
    const resumed = await tick(other, NEXT_TICK);
    expect((await resumed.done).status).toBe('succeeded');
    expect(h.service.orders.size).toBe(60);
    expect(h.service.orderDeliveries).toHaveLength(60 - acknowledged);
    const runs = await h.query(`SELECT status FROM run ORDER BY id`);
    expect(runs.map((r: { status: string }) => r.status)).toEqual(['interrupted', 'succeeded']);
  });
});
