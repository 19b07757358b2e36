import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RunSlots } from '../../src/scheduler/run-slots';
import { RunEntity } from '../../src/store/entities/run.entity';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { GOOD_TOKEN } from '../admin/fixtures/test-connector';

describe('run slots', () => {
  it('hands out `limit` slots, then one per release in the order asked, one wait per key', async () => {
    const slots = new RunSlots(2);
    const first = slots.tryTake()!;
    const second = (await slots.take('b:sync'))!;
    expect(slots.tryTake()).toBeNull();
    const order: string[] = [];
    const third = slots.take('c:sync').then((release) => (order.push('c'), release));
    const fourth = slots.take('d:sync').then((release) => (order.push('d'), release));
    expect([slots.waiting, slots.isWaiting('c:sync'), slots.isWaiting('b:sync')]).toEqual([2, true, false]);
    first();
    first(); // a second release frees nothing more
    const c = await third;
    expect([order, slots.waiting]).toEqual([['c'], 1]);
    second();
    (await fourth)!();
    c!();
    expect(order).toEqual(['c', 'd']);
    expect(slots.tryTake()).not.toBeNull(); // all given back
  });

  it('ends every wait when cleared (shutdown): a cron job stopping waits for its tick to end', async () => {
    const slots = new RunSlots(1);
    slots.tryTake();
    const waiting = slots.take('a:sync');
    slots.clear();
    await expect(waiting).resolves.toBeNull();
    expect(slots.waiting).toBe(0);
  });
});

/** `scheduler.concurrency`: start-up runs of many connections start a few at a time, all of them in the end. */
describe('scheduler: runs at once', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication;
  let dataDir: string;
  const ids = ['s1', 's2', 's3', 's4', 's5', 's6'];
  /** how many of these runs went at once, at most */
  const most = (runs: RunEntity[]) => Math.max(...runs.map((run) => runs.filter((r) => r.started_at <= run.started_at && run.started_at < (r.finished_at ?? '9')).length));

  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = tempDataDir();
    ({ app } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: 'run-slots-test-admin-token',
      scheduler: { concurrency: 2 },
      connections: ids.map((id) => ({ id, connector: 'test-source', run_on_start: true, settings: { token: GOOD_TOKEN, deals: 2, delay_ms: 400 } })),
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  it('keeps at most scheduler.concurrency start-up runs going at once, and runs every one', async () => {
    const runs = await eventually(async () => {
      const found = await app.get(DataSource).getRepository(RunEntity).find({ where: { trigger: 'startup' } });
      return found.length === ids.length && found.every((run) => run.finished_at) && found;
    }, 30_000);
    expect(runs.map((run) => run.status)).toEqual(ids.map(() => 'succeeded'));
    expect(most(runs)).toBe(2);
  });

  it('keeps to it for scheduled ticks too: connections due each second take turns', async () => {
    const ticking = await startAdminApp(sandbox.url, {
      dataDir: tempDataDir(),
      adminToken: 'run-slots-test-admin-token',
      scheduler: { concurrency: 1 },
      connections: ['t1', 't2', 't3'].map((id) => ({ id, connector: 'test-source', schedule: '* * * * * *', settings: { token: GOOD_TOKEN, deals: 2, delay_ms: 300 } })),
    });
    try {
      const runs = await eventually(async () => {
        const found = await ticking.app.get(DataSource).getRepository(RunEntity).find({ where: { trigger: 'schedule' } });
        const done = found.filter((run) => run.finished_at);
        return new Set(done.map((run) => run.connection_id)).size === 3 && found;
      }, 30_000);
      expect(most(runs)).toBe(1);
    } finally {
      await ticking.app.close();
      removeDir(ticking.config.data_dir);
    }
  });
});
