import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture } from '../fixtures/crm/crm-leads';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { removeDir, runCliInProcess, tempDir } from './cli-harness';

/**
 * `deliver-leads <connection> [--dry-run]` and `check` against the Pipedrive fixture and a loopback sandbox:
 * `check` resolves the pipeline, stage, user and fields against the CRM (an unknown one names its key), an
 * unknown key of lead_delivery fails the config naming it, the dry run lists each lead and the deal or note it
 * would make and changes nothing, the pass prints the flow's counters.
 */
describe('cli deliver-leads', () => {
  let sandbox: SandboxHarness;
  let server: CrmServer;
  let crm: LeadFixture;
  let dir: string;
  const settings = () => {
    const { rate_limit: _fast, ...rest } = pipedrive.settings(server.url);
    return rest;
  };
  const configWith = (name: string, leadDelivery: object): string => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify({
      data_dir: join(dir, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project: String(sandbox.projectId), rate_limit: 'off', retries: 1, timeout_ms: 5000 },
      sandbox: { seed: 'none', budget: 'off' },
      connections: [{ id: 'pd', connector: 'generic-crm', schedule: '0 0 1 1 *', settings: { ...settings(), lead_delivery: leadDelivery } }],
    }));
    return file;
  };
  const good = { pipeline: 'Продажи', stage: 'Первичный контакт', responsible: 12, lead_id_field: 'ID заявки', title: '{{title}} ({{name}})', fields: { 'Комментарий': '{{text}}' } };

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
    const fixture = pipedrive.createCrm();
    crm = fixture.leads;
    server = await startCrmServer(fixture.handler);
    dir = tempDir();
    await sandbox.post('project/proxy-leads/add', { title: 'Заявка', name: 'Иван', phone: '+7 (912) 000-11-22', email: '', text: 'Диван', tracker: '1000005' });
    await sandbox.post('project/proxy-leads/add', { title: 'Звонок', name: 'Иван', phone: '89120001122', email: '', text: '', tracker: '1000006' });
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
    removeDir(dir);
  });

  it('check resolves the pipeline, stage, responsible and lead_id_field against the CRM', async () => {
    const check = await runCliInProcess(['check', 'pd', '--config', configWith('good', good)]);
    expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' });
    expect(check.stdout).toContain('lead_delivery: pipeline "Продажи" (2), stage "Первичный контакт" (6), responsible "Дмитрий Орлов" (12), lead_id_field');
  });

  it.each([
    ['pipeline', { pipeline: 'Нет такой' }, /lead_delivery\.pipeline: the CRM has no pipeline "Нет такой" \(its pipelines: "Pipeline" \(1\), "Продажи" \(2\)\)/],
    ['stage', { stage: 'Closed' }, /lead_delivery\.stage: pipeline "Продажи" \(2\) has no stage "Closed"/],
    ['responsible', { responsible: 99 }, /lead_delivery\.responsible: the CRM has no user "99"/],
    ['lead_id_field', { lead_id_field: 'Lead number' }, /lead_delivery\.lead_id_field: the CRM has no deal field "Lead number"/],
    ['fields', { fields: { Colour: '{{text}}' } }, /lead_delivery\.fields\.Colour: the CRM has no deal field "Colour"/],
  ])('check names the key of an unknown %s', async (_key, change, message) => {
    const check = await runCliInProcess(['check', 'pd', '--config', configWith(`bad-${_key}`, { ...good, ...change })]);
    expect(check.code).not.toBe(0);
    expect(`${check.stdout}${check.stderr}`).toMatch(message);
  });

  it('an unknown key, or no lead_id_field, fails the config naming it', async () => {
    const unknown = await runCliInProcess(['check', 'pd', '--config', configWith('unknown-key', { ...good, colour: 'red' })]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/lead_delivery\.colour: unknown key/);
    const { lead_id_field: _id, ...without } = good;
    const missing = await runCliInProcess(['check', 'pd', '--config', configWith('no-id-field', without)]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/lead_delivery\.lead_id_field: is required/);
  });

  it('a dry run lists each lead and the deal or note it would make, and creates nothing', async () => {
    const config = configWith('good', good);
    const dry = await runCliInProcess(['deliver-leads', 'pd', '--dry-run', '--config', config]);
    expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = dry.stdout.trim().split('\n');
    expect(lines[0]).toBe('connection pd: lead-delivery dry run (nothing is created)');
    expect(lines[1]).toMatch(/^proxy lead \d+ «Заявка» → new deal «Заявка \(Иван\)» in Продажи \/ Первичный контакт \(responsible Дмитрий Орлов\), new contact Иван, \+7 \(912\) 000-11-22$/);
    expect(lines[2]).toBe('    Комментарий: Диван');
    // the contact is the one the first lead would make: named as that lead's, not with this lead's name
    const first = /^proxy lead (\d+)/.exec(lines[1])![1];
    expect(lines[3]).toBe(lines[3].replace(/ → .*/, '') + ` → note on deal (new deal of lead ${first}) (the new contact of lead ${first})`);
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(crm.createdDeals()).toEqual([]);
    const json = await runCliInProcess(['deliver-leads', 'pd', '--dry-run', '--json', '--config', config]);
    expect(JSON.parse(json.stdout).leads.map((l: { action: string }) => l.action)).toEqual(['create_deal', 'note']);
    // deliver-leads is `flow leads`: the same answer
    const generic = await runCliInProcess(['flow', 'leads', 'pd', '--dry-run', '--config', config]);
    expect({ code: generic.code, stdout: generic.stdout, stderr: generic.stderr }).toEqual({ code: 0, stdout: dry.stdout, stderr: '' });
  });

  it('a pass delivers them and prints the counters; `runs` shows the outbound run', async () => {
    const config = configWith('good', good);
    const pass = await runCliInProcess(['deliver-leads', 'pd', '--config', config]);
    expect({ code: pass.code, stderr: pass.stderr }).toEqual({ code: 0, stderr: '' });
    expect(pass.stdout).toContain('lead delivery: found 2 · created 1 · attached 1 · already_delivered 0 · rejected 0');
    expect(crm.createdDeals()).toHaveLength(1);
    // `status`: the connection's line is its sync's (none yet), lead delivery has a line of its own (issue 38)
    const status = await runCliInProcess(['status', '--config', config]);
    // no daemon runs on this store: no next run is promised, the flow's no more than the sync's
    expect(status.stdout).toMatch(/^pd {2}\(generic-crm\) {2}idle {2}last run: never {2}next run: none \(no daemon is running\)$/m);
    expect(status.stdout).toMatch(/^ {2}lead delivery {2}idle {2}last run: #\d+ succeeded .* {2}next run: none \(no daemon is running\)$/m);
    const again = await runCliInProcess(['deliver-leads', 'pd', '--dry-run', '--config', config]);
    // delivered leads are the runner's "already delivered": nothing listed, nothing to do
    expect(again.stdout.trim().split('\n')).toEqual([
      'connection pd: lead-delivery dry run (nothing is created)',
      'lead delivery: found 2 · created 0 · attached 0 · already_delivered 2 · rejected 0',
    ]);
    const generic = await runCliInProcess(['flow', 'leads', 'pd', '--config', config]);
    expect({ code: generic.code, stderr: generic.stderr }).toEqual({ code: 0, stderr: '' });
    expect(generic.stdout).toMatch(/^connection pd: lead-delivery run \d+ started$/m);
    expect(generic.stdout).toContain('lead delivery: found 2 · created 0 · attached 0 · already_delivered 2 · rejected 0');
    expect(crm.createdDeals()).toHaveLength(1);
  });
});
