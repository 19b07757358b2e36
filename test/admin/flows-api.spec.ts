import type { INestApplication } from '@nestjs/common';
import genericCrm from '../../connectors/generic-crm';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { eventually, removeDir, SANDBOX_KEY, startAdminApp, startSandbox, tempDataDir } from './admin-test-app';

const ADMIN_TOKEN = 'flows-admin-token';

/**
 * POST /api/connections/{id}/flows/{flow}: any outbound flow of the registry by name → 202 and the run (through the
 * one trigger path, trigger admin; its counters named by the flow's description); a flow the registry does not
 * know → 400 naming the flows; a connection without the flow's settings → 400; an unknown connection → 404.
 * POST …/deliver-leads is the route for flow leads (and …/write-back for write_back); the flow has a cron job of
 * its own (lead_delivery.schedule). /metrics: test/observability/metrics-leads.spec.ts.
 */
describe('admin API: flows/{flow}, and deliver-leads', () => {
  let sandbox: { app: INestApplication; url: string };
  let server: CrmServer;
  let app: INestApplication;
  let url: string;
  let dataDir: string;
  const call = (method: string, path: string) => fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  /** started, then finished: the run as GET /api/runs/{id} answers */
  const finishedRun = async (path: string) => {
    const started = await eventually(async () => {
      const res = await call('POST', path);
      return res.status === 202 && res;
    });
    const { run_id } = (await started.json()) as { run_id: number };
    expect(run_id).toEqual(expect.any(Number));
    return eventually(async () => {
      const body = (await (await call('GET', `/api/runs/${run_id}`)).json()) as { status: string };
      return body.status !== 'running' && body;
    });
  };

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

  it('answers 202 and the run of the flow named in the path, with its counters', async () => {
    const run = await finishedRun('/api/connections/pd/flows/leads');
    expect(run).toMatchObject({ mode: 'leads', trigger: 'admin', direction: 'outbound', flow: 'leads', status: 'succeeded', flow_counters: { found: 1, created: 1, attached: 0, already_delivered: 0, rejected: 0 } });
  });

  it('deliver-leads answers the same: 202 and an outbound run of flow leads with its counters', async () => {
    const run = await finishedRun('/api/connections/pd/deliver-leads');
    // the lead went in the run before: already delivered
    expect(run).toMatchObject({ mode: 'leads', direction: 'outbound', flow: 'leads', status: 'succeeded', flow_counters: { found: 1, created: 0, attached: 0, already_delivered: 1, rejected: 0 } });
  });

  it('refuses a flow the registry does not know (400, naming the flows)', async () => {
    const res = await call('POST', '/api/connections/pd/flows/nope');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('there is no outbound flow \\"nope\\" (flows: write_back, leads');
  });

  it("refuses a connection without the flow's settings (400), as the alias route does", async () => {
    const generic = await call('POST', '/api/connections/plain/flows/write_back');
    const alias = await call('POST', '/api/connections/plain/write-back');
    expect([generic.status, alias.status]).toEqual([400, 400]);
    const body = await generic.json();
    expect(await alias.json()).toEqual(body);
    expect(JSON.stringify(body)).toContain('plain');
  });

  it('names an unknown connection (404)', async () => {
    expect((await call('POST', '/api/connections/ghost/flows/leads')).status).toBe(404);
  });

  it('refuses a connection without lead_delivery (400)', async () => {
    const res = await call('POST', '/api/connections/plain/deliver-leads');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('delivers no leads');
  });
});
