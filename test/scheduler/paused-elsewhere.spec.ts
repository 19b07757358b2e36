import type { INestApplication } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { ConnectionsService } from '../../src/engine';
import { SchedulerService } from '../../src/scheduler';
import { RunEntity } from '../../src/store/entities/run.entity';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { GOOD_TOKEN } from '../admin/fixtures/test-connector';

/**
 * `npm run cli -- pause <id>` / `resume <id>` beside a running daemon (or the admin API of another daemon) write
 * only the stored flag: this daemon's scheduler must follow it (a pause at its next tick, a resume within seconds),
 * without a refresh() of its own.
 */
describe('scheduler: a connection paused or resumed by another process', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication;
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = tempDataDir();
    ({ app } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: 'paused-elsewhere-admin-token',
      connections: [{ id: 'ticking', connector: 'test-source', schedule: '* * * * * *', settings: { token: GOOD_TOKEN, deals: 2 } }],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  const runs = () => app.get(DataSource).getRepository(RunEntity).countBy({ connection_id: 'ticking' });

  it('starts no scheduled run once the stored flag says paused, and drops the job', async () => {
    await eventually(async () => (await runs()) >= 1, 5_000);
    // what the CLI's pause does in its own process: the flag only
    await app.get(ConnectionsService).pause('ticking');
    const registry = app.get(SchedulerRegistry);
    await eventually(async () => !registry.doesExist('cron', 'connection:ticking'), 3_000);
    await new Promise((r) => setTimeout(r, 300)); // a run that began just before the pause may still be recording
    const after = await runs();
    await new Promise((r) => setTimeout(r, 2_200));
    expect(await runs()).toBe(after);
  });

  it('schedules the connection again once the stored flag says resumed (the check every few seconds)', async () => {
    const registry = app.get(SchedulerRegistry);
    await app.get(ConnectionsService).resume('ticking');
    expect(registry.doesExist('cron', 'connection:ticking')).toBe(false);
    await app.get(SchedulerService).followStoredFlags();
    expect(registry.doesExist('cron', 'connection:ticking')).toBe(true);
    const before = await runs();
    await eventually(async () => (await runs()) > before, 5_000);
  });
});
