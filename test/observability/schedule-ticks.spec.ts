import type { INestApplication } from '@nestjs/common';
import genericCrm from '../../connectors/generic-crm';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';

const ADMIN_TOKEN = 'schedule-ticks-admin-token';

interface TicksJson { ticks: number; started: number; queued: number; skipped: number; max_wait_ms: number; last_skipped_at: string | null }

/**
 * A flow whose ticks are skipped shows (issue 38, item 5): a sync holds the connection (the CRM never answers its
 * deals request) while write-back ticks every second. The first tick waits for the connection, the next ones find
 * it waiting and join it (never a pile): GET /api/connections counts them per flow and /metrics has them.
 */
describe('skipped ticks of a flow, in the admin API and /metrics', () => {
  let sandbox: { app: INestApplication; url: string };
  let crm: CrmServer;
  let app: INestApplication;
  let url: string;
  let dataDir: string;
  const call = (method: string, path: string) => fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });

  beforeAll(async () => {
    sandbox = await startSandbox();
    crm = await startCrmServer(() => ({ hold: true }));
    dataDir = tempDataDir();
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connectors: [genericCrm],
      connections: [{
        id: 'busy', connector: 'generic-crm', schedule: '0 0 1 1 *',
        settings: {
          base_url: crm.url, auth: { type: 'none' },
          streams: { deals: { request: { path: '/deals' }, records: 'items', mapping: { id: 'id', created_at: 'created', visit_id: 'visit' } } },
          write_back: { fields: { channel: 'source' }, request: { method: 'PUT', path: '/deals/{{id}}', body: '{{values}}' }, schedule: '* * * * * *' },
        },
      }],
    }));
  });

  afterAll(async () => {
    await crm?.close();
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  it('counts the ticks that joined a waiting run as skipped, per flow', async () => {
    // a write-back tick's short run may hold the connection at that moment (409 naming it): the sync is asked again
    const accepted = await eventually(async () => (await call('POST', '/api/connections/busy/sync')).status === 202, 5_000);
    expect(accepted).toBe(true);
    const flow = await eventually(async () => {
      const body = (await (await call('GET', '/api/connections/busy')).json()) as { flows: { flow: string; ticks: TicksJson | null }[] };
      const writeBack = body.flows.find((f) => f.flow === 'write_back');
      return writeBack?.ticks && writeBack.ticks.skipped >= 2 && writeBack;
    }, 10_000);
    expect(flow.ticks).toMatchObject({ queued: 1, last_skipped_at: expect.any(String) });
    expect(flow.ticks!.ticks).toBe(flow.ticks!.started + flow.ticks!.queued + flow.ticks!.skipped);

    const metrics = await (await call('GET', '/metrics')).text();
    const skipped = /tracker_sync_schedule_ticks_total\{connection="busy",flow="write_back",outcome="skipped"\} (\d+)/.exec(metrics);
    expect(Number(skipped?.[1])).toBeGreaterThanOrEqual(2);
    expect(metrics).toMatch(/tracker_sync_schedule_ticks_total\{connection="busy",flow="write_back",outcome="queued"\} 1/);
  });
});
