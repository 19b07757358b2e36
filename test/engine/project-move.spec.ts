import connector from '../../connectors/generic-crm';
import { ConnectionConfig, ProjectConfig } from '../../src/config/config.schema';
import { createEngine } from '../../src/engine/engine-parts';
import { ProjectClients } from '../../src/projects/project-clients';
import * as amocrm from '../fixtures/crm/amocrm';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { EngineHarness, memoryRegistry } from '../support/engine-harness';

/**
 * A CRM connection moved to another project (a reload puts its id under another `projects:` block): its cursors
 * said how far the old project holds the CRM's records, nothing of the new one, so its first run there reads the
 * CRM from the beginning and sends every deal, as a moved spreadsheet does (test/daemon/config-reload.spec.ts).
 */
describe('engine: a CRM connection moved to another project', () => {
  let h: EngineHarness;
  let crm: CrmServer;
  let clients: ProjectClients;

  afterEach(async () => {
    await h?.stop();
    await clients?.close();
    await crm?.close();
  });

  it('reads the CRM from the beginning for the new project: no cursor carries over', async () => {
    h = await new EngineHarness({ connectionId: 'amo' }).start();
    crm = await startCrmServer(amocrm.handler);
    const registry = memoryRegistry();
    registry.register(connector);
    const amo = (project: string) => Object.assign(new ConnectionConfig(), { id: 'amo', connector: 'generic-crm', project, settings: amocrm.settings(crm.url) });
    h.config.projects = { acme: Object.assign(new ProjectConfig(), { project: '2' }), beta: Object.assign(new ProjectConfig(), { project: '3' }) };
    h.config.connections = [amo('beta')];
    clients = new ProjectClients({ config: h.config, defaults: { baseUrl: h.service.baseUrl!, apiKey: 'test-key', project: '1', rateLimit: 'off', retries: 1 } });
    const engine = createEngine({ store: h.dataSource, tracker: clients, connectors: registry, config: h.config, logger: h.logger });
    h.sync = engine.sync;
    // as the daemon and the CLI do at start and at each reload (StoreReconciler, ConfigReloadService)
    await engine.connections.syncFromConfig();
    /** where the last run's read of the deals (amoCRM's leads) began: from an updated_at, or from the beginning */
    let seen = 0;
    const dealsReadFrom = () => {
      const reads = crm.requests.slice(seen).filter((r) => r.path === '/api/v4/leads');
      seen = crm.requests.length;
      return reads[0]?.query.get('filter[updated_at][from]') ?? 'the beginning';
    };
    const deals = amocrm.expected.deals.length;

    expect((await h.run()).streams.deals).toMatchObject({ sent: deals });
    expect(dealsReadFrom()).toBe('the beginning');
    expect((await h.run()).streams.deals).toMatchObject({ sent: 0 });
    expect(dealsReadFrom()).toMatch(/^\d+$/); // incremental: from its cursor
    expect(await h.cursor()).not.toBeNull();

    h.config.connections.splice(0, 1, amo('acme'));
    await engine.connections.syncFromConfig();
    const moved = await h.run();
    expect(moved.status).toBe('succeeded');
    expect(moved.streams.deals).toMatchObject({ read: deals, sent: deals });
    expect(dealsReadFrom()).toBe('the beginning');
    expect(h.logger.lines).toContainEqual(expect.stringMatching(/records now go to .* project 2, not .* project 3: what was sent there is forgotten/));
  });
});
