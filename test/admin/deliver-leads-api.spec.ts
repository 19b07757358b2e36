import type { INestApplication } from '@nestjs/common';
import genericCrm from '../../connectors/generic-crm';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { eventually, removeDir, SANDBOX_KEY, startAdminApp, startSandbox, tempDataDir } from './admin-test-app';

const ADMIN_TOKEN = 'deliver-leads-admin-token';

/**
 * POST /api/connections/{id}/deliver-leads → 202 and the run (an outbound run of flow leads, its counters named by
 * the flow's description); a connection without lead_delivery → 400; the flow has a cron job of its own
 * (lead_delivery.schedule). /metrics: test/observability/metrics-leads.spec.ts.
 */
describe('admin API: deliver-leads', () => {
  let sandbox: { app: INestApplication; url: string };
  let server: CrmServer;
  let app: INestApplication;
  let url: string;
  let dataDir: string;
  const call = (method: string, path: string) => fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });

  beforeAll(async () => {
    sandbox = await startSandbox();
    const { rate_limit: _fast, ...settings } = pipedrive.settings('');
    server = await startCrmServer(pipedrive.createCrm().handler);
    const crmSettings = { ...settings, base_url: `${server.url}/api` };
    // a proxy lead in the service (the sandbox's way in)
    const answer = await fetch(`${sandbox.url}/project/proxy-leads/add?project=1`, {
      method: 'POST', headers: { 'Api-key': SANDBOX_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Заявка', name: 'Иван', phone: '+79120001122', email: '', text: '', tracker: '1000005' }),
    });
    expect(answer.status).toBe(200);
    dataDir = tempDataDir();
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connectors: [genericCrm],
      connections: [
        { id: 'pd', connector: 'generic-crm', schedule: '0 0 1 1 *', settings: { ...crmSettings, lead_delivery: { lead_id_field: 'Lead source', schedule: '0 0 1 1 *' } } },
        { id: 'plain', connector: 'generic-crm', schedule: '0 0 1 1 *', settings: crmSettings },
      ],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    await server?.close();
    removeDir(dataDir);
  });

  it('holds a lead-delivery job for the connection with lead_delivery only', () => {
    const names = [...app.get(SchedulerRegistry).getCronJobs().keys()].filter((n) => n.includes(':leads')).sort();
    expect(names).toEqual(['connection:pd:leads']);
  });

  it('answers 202 and the run; the run is an outbound run of flow leads with its counters', async () => {
    const started = await eventually(async () => {
      const res = await call('POST', '/api/connections/pd/deliver-leads');
      return res.status === 202 && res;
    });
    const { run_id } = (await started.json()) as { run_id: number };
    expect(run_id).toEqual(expect.any(Number));
    const run = await eventually(async () => {
      const res = await call('GET', `/api/runs/${run_id}`);
      const body = (await res.json()) as { status: string };
      return body.status !== 'running' && body;
    });
    expect(run).toMatchObject({ mode: 'leads', direction: 'outbound', flow: 'leads', status: 'succeeded', flow_counters: { found: 1, created: 1, attached: 0, already_delivered: 0, rejected: 0 } });
  });

  it('refuses a connection without lead_delivery (400)', async () => {
    const res = await call('POST', '/api/connections/plain/deliver-leads');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('delivers no leads');
  });
});
