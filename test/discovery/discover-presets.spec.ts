import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { DiscoverResult } from '../../src/discovery/discovery.service';
import { proposalText } from '../../src/discovery/proposal-yaml';
import { removeDir, runCliInProcess, tempDir } from '../cli/cli-harness';
import { allOrders } from '../e2e/sandbox-readback';
import { E2eSync } from '../e2e/e2e-harness';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm, bitrix24, hubspot, pipedrive, SetupFixture } from '../fixtures/crm/setup';
import { SandboxHarness } from '../sandbox/sandbox-harness';

const GROUP_STATUS = { paid: '1', canceled: '2', progress: '0' } as const;
const OUTCOME_STATUS = { won: '1', lost: '2', open: '0' } as const;

/**
 * For each preset, against a CRM account of two pipelines with open, won and lost stages and a visit field
 * named in Russian: `cli discover --json` lists it exactly; the proposed status_map maps every stage by what the
 * CRM says it means; the proposed block pasted under `settings:` syncs each deal with its status group.
 */
describe.each([amocrm, bitrix24, pipedrive, hubspot])('discover: preset $preset', (fixture: SetupFixture) => {
  let crm: CrmServer;
  let sandbox: SandboxHarness;
  let dir: string;
  let config: string;
  let result: DiscoverResult;

  beforeAll(async () => {
    crm = await startCrmServer(fixture.handler);
    sandbox = await SandboxHarness.start();
    dir = tempDir();
    config = join(dir, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project: String(sandbox.projectId), rate_limit: 'off', retries: 1 },
      connections: [{ id: fixture.preset, connector: 'generic-crm', settings: fixture.settings(crm.url) }],
    }));
    const answer = await runCliInProcess(['discover', fixture.preset, '--json', '--config', config]);
    expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 0, stderr: '' });
    result = JSON.parse(answer.stdout) as DiscoverResult;
  });

  afterAll(async () => {
    await sandbox?.app.close();
    await crm?.close();
    removeDir(dir);
  });

  it('lists the pipelines with their stages (won, lost, open as the CRM says), the fields and the users exactly', () => {
    const { pipelines, deal_statuses, deal_fields, contact_fields, users } = result;
    expect({ pipelines, deal_statuses, deal_fields, contact_fields, users }).toEqual(fixture.catalog);
    expect(result).toMatchObject({ connection_id: fixture.preset, connector: 'generic-crm', preset: fixture.preset });
  });

  it("proposes a status_map that maps every stage to the project's status of its group", () => {
    expect(result.project_statuses).toMatchObject({ source: 'project', paid: '1', canceled: '2', progress: '0' });
    const expected: Record<string, string> = {};
    for (const pipeline of fixture.catalog.pipelines) for (const stage of pipeline.stages) expected[stage.id] = OUTCOME_STATUS[stage.outcome];
    for (const status of fixture.catalog.deal_statuses) expected[status.key] = OUTCOME_STATUS[status.outcome];
    expect(result.proposed.status_map).toEqual(expected);
  });

  it('proposes the field named in Russian as visit_field (by id), and the attribution field that exists', () => {
    const visit = fixture.catalog.deal_fields.find((f) => f.name === 'Номер визита')!;
    const utm = fixture.catalog.deal_fields.find((f) => f.name === 'UTM campaign')!;
    const city = fixture.catalog.deal_fields.find((f) => f.name === 'Город');
    expect(result.proposed.visit_field).toBe(visit.id);
    expect(result.proposed.write_back).toEqual({ fields: { utm_campaign: utm.id, ...(city ? { city: city.id } : {}) } });
    const main = fixture.catalog.pipelines[0];
    expect(result.proposed.lead_delivery).toEqual({ pipeline: main.id, stage: fixture.leadStage, lead_id_field: null });
    expect(result.proposed.notes).toEqual([]);
  });

  it('the proposed block pasted under settings: syncs paid, cancelled and in-work deals with the right status', async () => {
    const text = proposalText(result);
    const pasted = parse(text) as Record<string, unknown>;
    expect(Object.keys(pasted)).toEqual(['status_map', 'visit_field']);
    const e2e = await E2eSync.start({ connectionId: fixture.preset, connector: 'generic-crm', settings: { ...fixture.settings(crm.url), ...pasted } });
    try {
      await e2e.registerVisits(fixture.deals.map((d) => d.visit));
      const run = await e2e.run();
      expect({ status: run.status, error: run.error, skipped: run.counters.skipped_by_status }).toEqual({ status: 'succeeded', error: null, skipped: 0 });
      const orders = await allOrders(e2e.tracker);
      const seen = orders.map((o) => ({ id: o.id, status: o.status.id, type: o.status.type, visit: o.visit ? String(o.visit.id) : null })).sort((a, b) => a.id.localeCompare(b.id));
      const wanted = fixture.deals.map((d) => ({ id: d.id, status: GROUP_STATUS[d.group], type: d.group, visit: d.visit })).sort((a, b) => a.id.localeCompare(b.id));
      expect(seen).toEqual(wanted);
    } finally {
      await e2e.stop();
    }
  });
});
