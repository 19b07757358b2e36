import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RunEntity } from '../../src/store/entities/run.entity';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { GOOD_TOKEN } from '../admin/fixtures/test-connector';

/**
 * At start-up the scheduler resumes a connection whose last *sync* was interrupted, whatever outbound runs came
 * after it; an interrupted outbound run (leads, manager tasks) starts no sync. It used to read the newest run of
 * any kind: a lead pass after an interrupted sync hid the sync, and an interrupted lead pass started a sync.
 */
describe('scheduler at start-up: interrupted syncs resume, outbound runs do not pass for them', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication | undefined;
  const dataDir = tempDataDir();
  const connections = ['sync-then-leads', 'leads-only', 'full-resync'].map((id) => ({ id, connector: 'test-source', settings: { token: GOOD_TOKEN, deals: 2 } }));
  const options = { dataDir, adminToken: 'startup-resume-admin-token', connections };

  beforeAll(async () => {
    sandbox = await startSandbox();
    // a first start creates the store; then the rows a crash would have left
    ({ app } = await startAdminApp(sandbox.url, options));
    const runs = app.get(DataSource).getRepository(RunEntity);
    const row = (connection_id: string, mode: string, status: string, minutesAgo: number) => ({
      connection_id, mode, trigger: 'schedule', status, streams: {}, since: null, holder: null, error: null,
      started_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(), finished_at: new Date(Date.now() - minutesAgo * 60_000 + 1000).toISOString(),
      direction: mode === 'incremental' ? 'sync' : 'outbound', flow: mode === 'incremental' ? null : mode, flow_counters: null,
    });
    await runs.insert([
      row('sync-then-leads', 'incremental', 'interrupted', 10),
      row('sync-then-leads', 'leads', 'succeeded', 5),
      row('leads-only', 'incremental', 'succeeded', 10),
      row('leads-only', 'leads', 'interrupted', 5),
      { ...row('full-resync', 'full', 'interrupted', 5), direction: 'sync', flow: null },
    ] as never);
    await app.close();
    ({ app } = await startAdminApp(sandbox.url, options));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  const startupRuns = (connectionId: string) =>
    app!.get(DataSource).getRepository(RunEntity).find({ where: { connection_id: connectionId, trigger: 'startup' } });

  it('resumes the interrupted sync though a lead pass ran after it', async () => {
    const runs = await eventually(async () => {
      const found = await startupRuns('sync-then-leads');
      return found.length > 0 && found;
    });
    expect(runs.map((r) => r.direction)).toEqual(['sync']);
  });

  it('starts an interrupted full resync again as a full resync (an incremental run would read nothing of an unchanged source)', async () => {
    const runs = await eventually(async () => {
      const found = await startupRuns('full-resync');
      return found.length > 0 && found;
    });
    expect(runs.map((r) => [r.direction, r.mode])).toEqual([['sync', 'full']]);
    expect((await startupRuns('sync-then-leads')).map((r) => r.mode)).toEqual(['incremental']);
  });

  it('starts no sync for an interrupted lead pass', async () => {
    await eventually(async () => (await startupRuns('sync-then-leads')).length > 0);
    expect(await startupRuns('leads-only')).toHaveLength(0);
  });
});
