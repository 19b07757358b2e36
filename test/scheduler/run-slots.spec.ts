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
    const second = await slots.take('b:sync');
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
    (await fourth)();
    c();
    expect(order).toEqual(['c', 'd']);
    expect(slots.tryTake()).not.toBeNull(); // all given back
  });
});

/** `scheduler.concurrency`: start-up runs of many connections start a few at a time, all of them in the end. */
describe('scheduler: runs at once', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication;
  let dataDir: string;
  const ids = ['s1', 's2', 's3', 's4', 's5', 's6'];

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
    const going = (at: string) => runs.filter((run) => run.started_at <= at && at < run.finished_at!).length;
    const most = Math.max(...runs.map((run) => going(run.started_at)));
    expect(most).toBe(2);
  });
});
