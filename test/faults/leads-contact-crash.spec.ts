import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { LeadDeliveryEntity } from '../../src/store/entities/lead-delivery.entity';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { CrmServer, FixtureHandler, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { digits, HOLD, LeadFixture } from '../fixtures/crm/crm-leads';
import * as hubspot from '../fixtures/crm/hubspot';
import { removeDir, runCli, tempDir } from '../cli/cli-harness';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { killCliWhen } from './support/kill-cli-when';

/**
 * The CLI's lead-delivery pass killed (SIGKILL) while HubSpot holds the CONTACT create: HubSpot made the contact,
 * the daemon never heard, and HubSpot's search (an index filled after the write) does not show the contact yet when
 * the daemon comes back. The lead was stored pending before its contact create was sent: the restart waits the
 * look-up lag after that create before it searches contacts again, finds the one made, and links the deal to it.
 * One contact, one deal. Fixture CRM on loopback (held to HubSpot's OpenAPI documents), the sandbox, SQLite.
 */
describe('lead delivery into HubSpot: SIGKILL while the CRM holds a contact create, its search lagging', () => {
  // longer than the CLI takes to start again, so a restart that searches at once misses the contact
  const SEARCH_LAG_MS = 6_000;
  let sandbox: SandboxHarness;
  let server: CrmServer;
  let crm: LeadFixture;
  let dir: string;
  let config: string;
  let contactCreates = 0;
  let leadId: string;

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
    const fixture = hubspot.createCrm({ leads: { searchLagMs: SEARCH_LAG_MS } });
    crm = fixture.leads;
    // the first contact create is made and never answered
    const handler: FixtureHandler = (request, state) => {
      const answer = fixture.handler(request, state);
      if (request.method === 'POST' && request.path === '/crm/v3/objects/contacts' && ++contactCreates === 1) return HOLD;
      return answer;
    };
    server = await startCrmServer(handler);
    dir = tempDir();
    config = join(dir, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project: String(sandbox.projectId), rate_limit: 'off', retries: 1, timeout_ms: 3000 },
      sandbox: { seed: 'none', budget: 'off' },
      connections: [{
        id: 'leads', connector: 'generic-crm', schedule: '0 0 1 1 *',
        settings: { ...hubspot.settings(server.url), lead_delivery: { pipeline: 'Продажи', lead_id_field: 'ID заявки', duplicates: 'create', lookup_lag_seconds: SEARCH_LAG_MS / 1000 + 1, settle_seconds: 0 } },
      }],
    }));
    const answer = await sandbox.post('project/proxy-leads/add', { title: 'Контакт', name: 'Злата', phone: '+7 912 300-40-50', email: '', text: '', tracker: '1000600' });
    leadId = String(answer.body.id);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
    if (dir) removeDir(dir);
  });

  it('after a restart the lead has one contact and one deal linked to it', async () => {
    await killCliWhen(['deliver-leads', 'leads', '--config', config], () => crm.createdContacts().length >= 1, 'the contact create');
    expect(crm.createdContacts()).toHaveLength(1);
    expect(crm.createdDeals()).toEqual([]);

    // the lead was stored pending before its contact create went out
    const store = await createStoreDataSource({ dataDir: join(dir, 'data') });
    try {
      expect(await store.getRepository(LeadDeliveryEntity).findBy({ connection_id: 'leads' })).toEqual([
        expect.objectContaining({ lead_id: leadId, state: 'pending', attempt: 'contact' }),
      ]);
    } finally {
      await store.destroy();
    }

    const again = await runCli(['deliver-leads', 'leads', '--config', config], {}, 90_000);
    expect({ code: again.code, stderr: again.stderr }).toMatchObject({ code: 0 });
    expect(again.stdout).toMatch(/found 1 · created 1 · attached 0 · already_delivered 0 · rejected 0/);
    const contacts = crm.createdContacts().filter((c) => c.phones.some((p) => digits(p).endsWith('9123004050')));
    expect(contacts).toHaveLength(1);
    expect(crm.createdDeals().map((d) => ({ lead: String(d.fields.lead_id), contact: d.contactId }))).toEqual([{ lead: leadId, contact: contacts[0].id }]);
    expect(contactCreates).toBe(1);
  }, 180_000);
});
