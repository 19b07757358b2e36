import type { INestApplication } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { ConnectionsService } from '../../src/engine';
import { SchedulerService } from '../../src/scheduler';
import { RunEntity } from '../../src/store/entities/run.entity';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { GOOD_TOKEN } from '../admin/fixtures/test-connector';

const settings = (extra: object = {}) => ({ token: GOOD_TOKEN, deals: 2, ...extra });

/** Cron jobs per connection, ticks that start runs, run_on_start, over the real engine and store. */
describe('scheduler', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication;
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = tempDataDir();
    ({ app } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: 'scheduler-test-admin-token',
      connections: [
        // every second, and each run takes longer than that: ticks overlap a running run
        { id: 'ticking', connector: 'test-source', schedule: '* * * * * *', settings: settings({ delay_ms: 1200 }) },
        { id: 'yearly', connector: 'test-source', schedule: '0 0 1 1 *', run_on_start: true, settings: settings() },
        { id: 'paused', connector: 'test-source', schedule: '0 0 1 1 *', paused: true, run_on_start: true, settings: settings() },
        { id: 'manual', connector: 'test-source', settings: settings() },
      ],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  const runsOf = (connectionId: string) =>
    app.get(DataSource).getRepository(RunEntity).find({ where: { connection_id: connectionId }, order: { id: 'ASC' } });

  it('holds one job per enabled connection with a schedule', () => {
    const names = [...app.get(SchedulerRegistry).getCronJobs().keys()].sort();
    expect(names).toEqual(['connection:ticking', 'connection:yearly']);
  });

  it('answers the next run time: a date for scheduled connections, null when paused or unscheduled', async () => {
    const scheduler = app.get(SchedulerService);
    const next = await scheduler.nextRun('yearly');
    expect(next!.getTime()).toBeGreaterThan(Date.now());
    expect(next!.getUTCMonth() === 0 || next!.getMonth() === 0).toBe(true);
    expect(await scheduler.nextRun('paused')).toBeNull();
    expect(await scheduler.nextRun('manual')).toBeNull();
  });

  it('starts run_on_start connections once at boot (trigger startup), not paused ones', async () => {
    const runs = await eventually(async () => {
      const found = await runsOf('yearly');
      return found.length > 0 && found;
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe('startup');
    expect(await runsOf('paused')).toHaveLength(0);
  });

  it('starts incremental runs on each tick; a tick during a run waits for it, never two at once', async () => {
    await eventually(async () => (await runsOf('ticking')).length >= 2, 8_000);
    const runs = await runsOf('ticking');
    for (const run of runs) expect(run).toMatchObject({ trigger: 'schedule', mode: 'incremental' });
    // ticks come every second but each run lasts 1.2 s: no two runs of the connection overlap
    const sorted = runs.filter((r) => r.finished_at).sort((a, b) => a.started_at.localeCompare(b.started_at));
    for (let i = 1; i < sorted.length; i++) expect(sorted[i].started_at >= sorted[i - 1].finished_at!).toBe(true);
  });

  it('refresh() follows the stored paused flag', async () => {
    const scheduler = app.get(SchedulerService);
    const registry = app.get(SchedulerRegistry);
    await app.get(ConnectionsService).pause('ticking');
    await scheduler.refresh('ticking');
    expect(registry.doesExist('cron', 'connection:ticking')).toBe(false);
    expect(await scheduler.nextRun('ticking')).toBeNull();
    await app.get(ConnectionsService).resume('ticking');
    await scheduler.refresh('ticking');
    expect(registry.doesExist('cron', 'connection:ticking')).toBe(true);
    await app.get(ConnectionsService).pause('ticking');
    await scheduler.refresh('ticking');
  });
});
