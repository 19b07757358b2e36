import type { INestApplication } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TrackerClient } from '../../src/tracker';
import { SANDBOX_KEY, startSandbox } from '../admin/admin-test-app';
import { handler as amoCrm, settings as amoSettings, TOKEN } from '../fixtures/crm/amocrm';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { removeDir, runCliInProcess, tempDir } from './cli-harness';

/**
 * A project whose statuses are its own dictionary without "1" (set with set-statuses, as a real project's are):
 * `check` warns about the status_map target the project does not know; `statuses: register` defines the CRM's
 * stages (amoCRM's pipelines, from the fixture CRM) in the project and sends the deals with the CRM's own ids.
 */
describe('the project\'s statuses: check and statuses: register', () => {
  let sandbox: { app: INestApplication; url: string };
  let crm: CrmServer;
  let dir: string;
  let config: string;
  let project: string;
  let tracker: TrackerClient;

  beforeAll(async () => {
    sandbox = await startSandbox();
    crm = await startCrmServer(amoCrm);
    dir = tempDir();
    const admin = new TrackerClient({ baseUrl: sandbox.url, apiKey: SANDBOX_KEY, project: '1', rateLimit: 'off', retries: 0 });
    project = String((await admin.projects.create({ name: 'own statuses', currency: 'RUB' })).data.project_id);
    await admin.close();
    tracker = new TrackerClient({ baseUrl: sandbox.url, apiKey: SANDBOX_KEY, project, rateLimit: 'off', retries: 0 });
    await tracker.orders.setStatuses([
      { id: '0', name: 'Новая', type: 'progress' },
      { id: '2', name: 'Отказ', type: 'canceled' },
      { id: 'web', name: 'Заявка с сайта', type: 'progress' },
    ]);
    // the fixture's deals carry visits 123456789 and 987: recorded, so that every deal is stored at once
    const visits = await fetch(`${sandbox.url}/_sandbox/visits?project=${project}`, {
      method: 'POST', headers: { 'Api-key': SANDBOX_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify([{ id: '123456789' }, { id: '987' }]),
    });
    expect(visits.status).toBe(200);
    const { status_map: statusMap, ...withoutMap } = amoSettings(crm.url);
    expect(statusMap).toEqual({ '142': '1', '143': '2', '*': '0' });
    writeFileSync(join(dir, 'deals.csv'), 'id,title,status,created_at\nD1,Sofa,won,2025-03-01 10:00\n');
    config = join(dir, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      tracker: { base_url: sandbox.url, api_key: SANDBOX_KEY, project, rate_limit: 'off', retries: 1, timeout_ms: 5000 },
      connections: [
        { id: 'amo-mapped', connector: 'generic-crm', settings: amoSettings(crm.url) },
        { id: 'amo-own', connector: 'generic-crm', statuses: 'register', settings: withoutMap },
        // a spreadsheet keeps its status_map under its deals sheet
        { id: 'sheet', connector: 'spreadsheet', settings: { deals: { path: join(dir, 'deals.csv'), status_map: { won: '99', new: '0' } } } },
      ],
    }));
  });

  afterAll(async () => {
    await tracker?.close();
    await crm?.close();
    await sandbox?.app.close();
    removeDir(dir);
  });

  it('check lists the project\'s statuses and warns about the status_map target "1", naming the stage mapped to it', async () => {
    const check = await runCliInProcess(['check', 'amo-mapped', '--config', config]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('connection amo-mapped: the project\'s statuses: 0 (Новая, progress), 2 (Отказ, canceled), web (Заявка с сайта, progress)');
    const warnings = check.stderr.split('\n').filter((line) => line.includes('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('status_map: target "1" (for "142") is not a status of the project');
    expect(warnings[0]).toContain('skipped_by_status');
    const json = JSON.parse((await runCliInProcess(['check', 'amo-mapped', '--json', '--config', config])).stdout);
    expect(json).toMatchObject({ ok: true, warnings: [expect.stringContaining('target "1"')], project_statuses: expect.any(Array) });
    expect(JSON.stringify(json)).not.toContain(TOKEN);
  });

  it("check of a spreadsheet warns about its deals sheet's status_map target the project does not know", async () => {
    const check = await runCliInProcess(['check', 'sheet', '--config', config]);
    expect(check.code).toBe(0);
    const warnings = check.stderr.split('\n').filter((line) => line.includes('warning:'));
    expect(warnings).toEqual([expect.stringContaining('status_map: target "99" (for "won") is not a status of the project')]);
  });

  it('check of a statuses: register connection names the CRM stages the next run registers', async () => {
    const check = await runCliInProcess(['check', 'amo-own', '--config', config]);
    expect(check.code).toBe(0);
    expect(check.stderr).toMatch(/warning: statuses: register: 6 of the CRM's 6 deal stages are not yet statuses of the project; the next run registers them: 55500 \(Неразобранное, progress\), .*142 \(Успешно реализовано, paid\), 143 \(Закрыто и не реализовано, canceled\)/);
  });

  it('statuses: register: the deals arrive with the CRM\'s stage ids, none skipped_by_status, and the project lists the stages with their groups', async () => {
    const sync = await runCliInProcess(['sync', 'amo-own', '--config', config]);
    expect(sync.code).toBe(0);
    const statuses = await tracker.orders.listStatuses();
    expect(statuses).toEqual(expect.arrayContaining([
      { id: '0', name: 'Новая', type: 'progress' }, // the project's own statuses stay
      { id: 'web', name: 'Заявка с сайта', type: 'progress' },
      { id: '55501', name: 'Первичный контакт', type: 'progress' },
      { id: '56601', name: 'Заявка опт', type: 'progress' },
      { id: '142', name: 'Успешно реализовано', type: 'paid' },
      { id: '143', name: 'Закрыто и не реализовано', type: 'canceled' },
    ]));
    expect(statuses.filter((s) => s.id === '142')).toHaveLength(1); // listed in both pipelines, registered once
    const runs = JSON.parse((await runCliInProcess(['runs', 'amo-own', '--json', '--config', config])).stdout);
    expect(JSON.stringify(runs)).toMatch(/"skipped_by_status":0/);
    const orders = await tracker.orders.list({ limit: 100 });
    const byId = new Map(orders.data.map((order) => [order.id, order.status]));
    expect(Object.fromEntries(byId)).toEqual({
      7001: { id: '142', type: 'paid', name: 'Успешно реализовано' },
      7002: { id: '143', type: 'canceled', name: 'Закрыто и не реализовано' },
      7003: { id: '55501', type: 'progress', name: 'Первичный контакт' },
      7004: { id: '142', type: 'paid', name: 'Успешно реализовано' },
    });
    // a second check: nothing left to register, no warning
    const again = await runCliInProcess(['check', 'amo-own', '--config', config]);
    expect(again.stderr).not.toContain('warning:');
    expect(again.stdout).toContain('connection amo-own: source: ok');
  });

  it('statuses: register together with a status_map is a config error naming the key', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, stringify({
      data_dir: join(dir, 'data-bad'),
      tracker: { base_url: sandbox.url, api_key: SANDBOX_KEY, project, rate_limit: 'off' },
      connections: [{ id: 'amo', connector: 'generic-crm', statuses: 'register', settings: amoSettings(crm.url) }],
    }));
    const check = await runCliInProcess(['check', 'amo', '--config', bad]);
    expect(check.code).not.toBe(0);
    expect(check.stderr).toContain('connections[0].statuses: register sends the CRM\'s own stage ids; remove settings.status_map');
  });
});
