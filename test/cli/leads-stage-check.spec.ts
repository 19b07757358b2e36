import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as amocrm from '../fixtures/crm/amocrm';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { removeDir, runCliInProcess, tempDir } from './cli-harness';

/**
 * amoCRM's unsorted stage (type 1; "Неразобранное" 55500 in the fixture's pipeline "Продажи") is a stage of its
 * pipeline that POST /api/v4/leads creates no lead in. `check` defaults to the first stage a deal can be created in,
 * and a lead_delivery.stage naming the unsorted one fails with why, not "the pipeline has no such stage".
 */
describe('check: lead_delivery.stage of amoCRM', () => {
  let sandbox: SandboxHarness;
  let server: CrmServer;
  let dir: string;
  const configWith = (name: string, leadDelivery: object): string => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify({
      data_dir: join(dir, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project: String(sandbox.projectId), rate_limit: 'off', retries: 1, timeout_ms: 5000 },
      sandbox: { seed: 'none', budget: 'off' },
      connections: [{ id: 'amo', connector: 'generic-crm', schedule: '0 0 1 1 *', settings: { ...amocrm.settings(server.url), lead_delivery: leadDelivery } }],
    }));
    return file;
  };

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
    server = await startCrmServer(amocrm.createCrm().handler);
    dir = tempDir();
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
    removeDir(dir);
  });

  it('without a stage takes the first a deal can be created in, not the unsorted one', async () => {
    const check = await runCliInProcess(['check', 'amo', '--config', configWith('default', { pipeline: 'Продажи', lead_id_field: 'ID заявки' })]);
    expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' });
    expect(check.stdout).toContain('lead_delivery: pipeline "Продажи" (3001), stage "Первичный контакт" (55501)');
  });

  it.each([['55500'], ['Неразобранное']])('a stage %s that takes no new deals fails check with the reason', async (stage) => {
    const check = await runCliInProcess(['check', 'amo', '--config', configWith(`unsorted-${stage}`, { pipeline: 'Продажи', stage, lead_id_field: 'ID заявки' })]);
    const output = `${check.stdout}${check.stderr}`;
    expect(check.code).not.toBe(0);
    expect(output).toContain('lead_delivery.stage: stage "Неразобранное" (55500) of pipeline "Продажи" (3001) takes no new deals: amoCRM\'s unsorted stage (type 1): POST /api/v4/leads creates no lead in it');
    expect(output).toContain('stages it takes them in: "Первичный контакт" (55501), "Переговоры" (55502)');
    expect(output).not.toMatch(/has no stage/);
  });
});
