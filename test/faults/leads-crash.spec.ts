import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture } from '../fixtures/crm/crm-leads';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { removeDir, ROOT, runCli, tempDir } from '../cli/cli-harness';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { nodeEntry } from '../support/node-entry';

/**
 * The CLI's lead-delivery pass killed (SIGKILL) while the CRM holds a deal create unanswered: the CRM took the
 * create, the daemon never heard. After a restart every proxy lead has exactly one deal: the lead stored pending
 * before its create is looked up by lead_id_field, found, and not created again.
 */
describe('lead delivery: SIGKILL while the CRM holds a create', () => {
  let sandbox: SandboxHarness;
  let server: CrmServer;
  let crm: LeadFixture;
  let dir: string;
  let config: string;
  const leadIds: string[] = [];

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
    const fixture = pipedrive.createCrm({ leads: { holdDealCreate: 3 } });
    crm = fixture.leads;
    server = await startCrmServer(fixture.handler);
    dir = tempDir();
    config = join(dir, 'config.yaml');
    const { rate_limit: _fast, ...settings } = pipedrive.settings(server.url);
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project: String(sandbox.projectId), rate_limit: 'off', retries: 1, timeout_ms: 3000 },
      sandbox: { seed: 'none', budget: 'off' },
      connections: [{
        id: 'leads', connector: 'generic-crm', schedule: '0 0 1 1 *',
        settings: { ...settings, lead_delivery: { pipeline: 'Продажи', lead_id_field: 'ID заявки', duplicates: 'create' } },
      }],
    }));
    for (let i = 0; i < 6; i += 1) {
      const answer = await sandbox.post('project/proxy-leads/add', { title: `Lead ${i}`, name: `Client ${i}`, phone: `+7 912 100-00-0${i}`, email: '', text: '', tracker: String(1000020 + i) });
      leadIds.push(String(answer.body.id));
    }
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
    if (dir) removeDir(dir);
  });

  it('after a restart every lead has exactly one deal', async () => {
    const child = spawn(process.execPath, [...nodeEntry('cli'), 'deliver-leads', 'leads', '--config', config], {
      cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    // the third create arrives, the CRM makes the deal and never answers; then the process dies
    const deadline = Date.now() + 60_000;
    while (crm.createdDeals().length < 3) {
      if (Date.now() > deadline) throw new Error(`the third create never came:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGKILL');
    await exited;
    expect(crm.createdDeals()).toHaveLength(3);

    const again = await runCli(['deliver-leads', 'leads', '--config', config], {}, 60_000);
    expect({ code: again.code, stderr: again.stderr }).toMatchObject({ code: 0 });
    // two were delivered before the kill; the held one is found by lead_id_field (counted created: its deal is new), three are new
    expect(again.stdout).toMatch(/found 6 · created 4 · attached 0 · already_delivered 2 · rejected 0/);

    const perLead = new Map<string, number>();
    for (const deal of crm.createdDeals()) {
      const lead = String(deal.fields[pipedrive.FIELD_KEYS.leadId]);
      perLead.set(lead, (perLead.get(lead) ?? 0) + 1);
    }
    expect(Object.fromEntries(perLead)).toEqual(Object.fromEntries(leadIds.map((id) => [id, 1])));
    // the restart looked the held lead up before anything else
    const third = leadIds[2];
    const lookups = server.requests.filter((r) => r.path === '/api/v2/deals/search' && r.query.get('term') === third);
    expect(lookups.length).toBe(1);

    const third2 = await runCli(['deliver-leads', 'leads', '--config', config], {}, 60_000);
    expect(third2.stdout).toMatch(/created 0 · attached 0 · already_delivered 6/);
    expect(crm.createdDeals()).toHaveLength(6);
  }, 180_000);
});
