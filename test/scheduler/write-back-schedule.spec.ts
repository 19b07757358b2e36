import type { INestApplication } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import genericCrm from '../../connectors/generic-crm';
import { ConnectionsService } from '../../src/engine';
import { SchedulerService } from '../../src/scheduler';
import { RunEntity } from '../../src/store/entities/run.entity';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { GOOD_TOKEN } from '../admin/fixtures/test-connector';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';

const ADMIN_TOKEN = 'write-back-schedule-admin-token';

/** A write-back with `write_back.schedule` runs on its own cron job; without one it is started by hand or after a sync. */
describe('scheduler: write-back', () => {
  let sandbox: { app: INestApplication; url: string };
  let crm: CrmServer;
  let app: INestApplication;
  let url: string;
  let dataDir: string;

  const crmSettings = (writeBack: object) => ({
    base_url: crm.url,
    auth: { type: 'none' },
    streams: { deals: { request: { path: '/deals' }, records: 'items', mapping: { id: 'id', created_at: 'created', visit_id: 'visit' } } },
    write_back: { fields: { channel: 'source' }, request: { method: 'PUT', path: '/deals/{{id}}', body: '{{values}}' }, ...writeBack },
  });

  beforeAll(async () => {
    sandbox = await startSandbox();
    crm = await startCrmServer(() => ({ body: { items: [] } }));
    dataDir = tempDataDir();
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connectors: [genericCrm],
      connections: [
        { id: 'own-cron', connector: 'generic-crm', settings: crmSettings({ schedule: '* * * * * *' }) },
        { id: 'after-sync', connector: 'generic-crm', settings: crmSettings({}) },
        { id: 'sheet-like', connector: 'test-source', settings: { token: GOOD_TOKEN, deals: 1 } },
      ],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    await crm?.close();
    removeDir(dataDir);
  });

  const runsOf = (connectionId: string) =>
    app.get(DataSource).getRepository(RunEntity).find({ where: { connection_id: connectionId }, order: { id: 'ASC' } });
  const post = (path: string) => fetch(`${url}/api${path}`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });

  it('holds a write-back job only for a connection whose write_back has a schedule', () => {
    const names = [...app.get(SchedulerRegistry).getCronJobs().keys()].sort();
    expect(names).toEqual(['connection:own-cron:write-back']);
  });

  it('starts write-back runs on its ticks (mode write_back, trigger schedule), and none while paused', async () => {
    const runs = await eventually(async () => {
      const found = (await runsOf('own-cron')).filter((r) => r.status !== 'running');
      return found.length >= 1 && found;
    }, 5_000);
    expect(runs[0]).toMatchObject({ mode: 'write_back', trigger: 'schedule', status: 'succeeded', write_back: { attributed: 0, written: 0, unchanged: 0, rejected: 0 } });
    await app.get(ConnectionsService).pause('own-cron');
    await app.get(SchedulerService).refresh('own-cron');
    expect(app.get(SchedulerRegistry).doesExist('cron', 'connection:own-cron:write-back')).toBe(false);
  });

  it('POST /api/connections/{id}/write-back starts a pass; a connection that writes nothing back answers 400 saying why', async () => {
    const started = await post('/connections/after-sync/write-back');
    expect(started.status).toBe(202);
    const { run_id: runId } = (await started.json()) as { run_id: number };
    const run = await eventually(async () => {
      const found = (await runsOf('after-sync')).find((r) => r.id === runId && r.status !== 'running');
      return found;
    });
    expect(run).toMatchObject({ mode: 'write_back', trigger: 'admin', status: 'succeeded' });
    const shown = await fetch(`${url}/api/runs/${runId}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(await shown.json()).toMatchObject({ id: runId, mode: 'write_back', write_back: { attributed: 0, written: 0, unchanged: 0, rejected: 0 } });
    const refused = await post('/connections/sheet-like/write-back');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('connection sheet-like writes nothing back');
  });
});
