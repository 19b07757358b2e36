import type { INestApplication } from '@nestjs/common';
import genericCrm from '../../connectors/generic-crm';
import { AlertsService } from '../../src/alerts/alerts.service';
import { eventually, removeDir, SANDBOX_KEY, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { HttpReceiver } from '../support/alert-receivers';

const ADMIN_TOKEN = 'sync-health-admin-token';

interface RunJson { id: number; status: string; direction: string; flow: string | null }
interface ConnectionJson {
  id: string; state: string; last_run: RunJson | null;
  flows: { flow: string; state: string; last_run: RunJson | null; schedule: string | null }[];
}

/**
 * A connection's health is its sync's (issue 38, item 4): with the CRM down, the syncs fail while lead passes that
 * never touch the CRM (no leads waiting) succeed. The connection stays `failing` with its failed sync as last run,
 * lead delivery has its own line, `run_failed` is not "recovered" by a lead pass, and `no_success_for` counts from
 * the last successful sync; `recovered` comes when a sync succeeds again. A flow that fails is its own condition,
 * recovered by its own next success.
 */
describe('alerts and state follow the sync, each flow has its own line', () => {
  let sandbox: { app: INestApplication; url: string };
  let crm: CrmServer;
  let receiver: HttpReceiver;
  let app: INestApplication;
  let url: string;
  let dataDir: string;
  let crmDown = true;
  const call = (method: string, path: string) => fetch(`${url}/api${path}`, { method, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });

  beforeAll(async () => {
    sandbox = await startSandbox();
    const fixture = pipedrive.createCrm();
    crm = await startCrmServer((request, server) => (crmDown ? { status: 503, body: { success: false, error: 'Service Unavailable' } } : fixture.handler(request, server)));
    receiver = new HttpReceiver();
    await receiver.start();
    dataDir = tempDataDir();
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connectors: [genericCrm],
      connections: [{
        id: 'crm', connector: 'generic-crm', schedule: '0 0 1 1 *',
        settings: { ...pipedrive.settings(crm.url), lead_delivery: { lead_id_field: 'ID заявки', schedule: '0 0 1 1 *' } },
      }],
      alerts: [{ id: 'ops', type: 'webhook', url: `${receiver.url}/hook`, events: ['run_failed', 'recovered', 'no_success_for'], no_success_for: '2s', repeat: '1h' }],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    await crm?.close();
    await receiver?.stop();
    removeDir(dataDir);
  });

  async function finished(path: string): Promise<RunJson> {
    const started = await call('POST', path);
    expect(started.status).toBe(202);
    const { run_id: runId } = (await started.json()) as { run_id: number };
    return eventually(async () => {
      const run = (await (await call('GET', `/runs/${runId}`)).json()) as RunJson;
      return run.status !== 'running' && run;
    }, 20_000);
  }
  const events = () => receiver.posts.map((p) => (p.body as { event: string }).event);
  const connection = async () => (await (await call('GET', '/connections/crm')).json()) as ConnectionJson;

  it('keeps the connection failing through successful lead passes, with no recovered and no flapping', async () => {
    const sync = await finished('/connections/crm/sync');
    expect(sync).toMatchObject({ status: 'failed', direction: 'sync' });
    await receiver.waitFor(1);
    const leads = await finished('/connections/crm/deliver-leads');
    expect(leads).toMatchObject({ status: 'succeeded', direction: 'outbound', flow: 'leads' });
    await app.get(AlertsService).evaluator.settled();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events()).toEqual(['run_failed']);

    const shown = await connection();
    expect(shown).toMatchObject({ state: 'failing', last_run: { id: sync.id, status: 'failed' } });
    expect(shown.flows).toEqual([expect.objectContaining({ flow: 'leads', state: 'idle', schedule: '0 0 1 1 *', last_run: expect.objectContaining({ id: leads.id, status: 'succeeded' }) })]);
    const listed = (await (await call('GET', '/connections')).json()) as ConnectionJson[] | { connections: ConnectionJson[] };
    const all = Array.isArray(listed) ? listed : listed.connections;
    expect(all.find((c) => c.id === 'crm')).toMatchObject({ state: 'failing', last_run: { id: sync.id } });
  });

  it('raises no_success_for from the last successful sync, whatever the lead passes did', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await finished('/connections/crm/deliver-leads');
    await app.get(AlertsService).evaluator.check();
    await receiver.waitFor(2);
    expect(events()).toEqual(['run_failed', 'no_success_for']);
  });

  it('sends recovered when a sync succeeds again', async () => {
    crmDown = false;
    const sync = await finished('/connections/crm/sync');
    expect(sync).toMatchObject({ status: 'succeeded', direction: 'sync' });
    const posts = await receiver.waitFor(3);
    expect(posts[2].body).toMatchObject({ event: 'recovered', run_id: sync.id });
    expect((posts[2].body as { message: string }).message).toMatch(/run_failed/);
    expect(await connection()).toMatchObject({ state: 'idle', last_run: { id: sync.id } });
  });

  it("keeps a flow's failure to the flow: a sync does not recover it, the flow's next success does", async () => {
    const lead = await fetch(`${sandbox.url}/project/proxy-leads/add?project=1`, {
      method: 'POST', headers: { 'Api-key': SANDBOX_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Заявка', name: 'Иван', phone: '+79120001122', email: '', text: '', tracker: '1000005' }),
    });
    expect(lead.status).toBe(200);
    crmDown = true;
    const failed = await finished('/connections/crm/deliver-leads');
    expect(failed).toMatchObject({ status: 'failed', flow: 'leads' });
    const posts = await receiver.waitFor(4);
    expect(posts[3].body).toMatchObject({ event: 'run_failed', run_id: failed.id, message: expect.stringMatching(/^crm: lead delivery run \d+ failed/) });
    const alerts = (await (await call('GET', '/alerts')).json()) as { active: { event: string; flow: string | null }[] };
    expect(alerts.active).toEqual([expect.objectContaining({ event: 'run_failed', flow: 'leads' })]);
    const shown = await connection();
    expect(shown).toMatchObject({ state: 'idle' });
    expect(shown.flows[0]).toMatchObject({ flow: 'leads', state: 'failing', last_run: { id: failed.id } });

    crmDown = false;
    await finished('/connections/crm/sync');
    await app.get(AlertsService).evaluator.settled();
    expect(events()).toEqual(['run_failed', 'no_success_for', 'recovered', 'run_failed']);
    const delivered = await finished('/connections/crm/deliver-leads');
    expect(delivered).toMatchObject({ status: 'succeeded', flow: 'leads' });
    const recovered = (await receiver.waitFor(5))[4].body as { event: string; message: string };
    expect(recovered).toMatchObject({ event: 'recovered', message: expect.stringMatching(/^crm: recovered in lead delivery run \d+/) });
  });
});
