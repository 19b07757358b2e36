/**
 * `statuses: register` defines the CRM's stages in the connection's own project, not in the `tracker:` project:
 * the real engine (memory connector with stages, SQLite store) against a sandbox where one key owns projects 1 and 2.
 */
import { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ProjectConfig } from '../../src/config/config.schema';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { createEngine } from '../../src/engine/engine-parts';
import { ProjectClients } from '../../src/projects/project-clients';
import { createSandboxApp } from '../../src/sandbox/sandbox-app';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { CapturingLogger, connectionConfig, trackerSyncConfig } from '../support/engine-harness';
import { makeDeals, memoryConnector, memorySource } from '../support/memory-connector';

const KEY = 'sandbox-statuses-key-41';

describe('statuses: register in the connection\'s project', () => {
  let sandbox: INestApplication;
  let baseUrl: string;
  let dir: string;
  let ds: DataSource;
  let clients: ProjectClients;

  beforeAll(async () => {
    sandbox = await createSandboxApp({ db: ':memory:', seed: 'none', apiKey: KEY, budget: 'off' }, { prefix: 'api/v1' });
    await sandbox.listen(0, '127.0.0.1');
    baseUrl = `${await sandbox.getUrl()}/api/v1`;
    const created = await fetch(`${baseUrl}/account/project/create`, {
      method: 'POST', headers: { 'Api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'acme', currency: 'USD' }),
    });
    expect(((await created.json()) as { data: { project_id: number } }).data.project_id).toBe(2);
    dir = mkdtempSync(join(tmpdir(), 'project-statuses-'));
    ds = await createStoreDataSource({ dataDir: dir });
  });

  afterAll(async () => {
    await clients?.close();
    await ds?.destroy();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers the CRM\'s stages in project 2 and leaves project 1 as it was', async () => {
    memorySource('statuses-acme', { deals: makeDeals(3).map((deal) => ({ ...deal, status: 'won-stage', visit_id: null })) });
    const registry = new ConnectorRegistry();
    registry.register({ ...memoryConnector, stages: async () => [{ id: 'won-stage', name: 'Won in the CRM', type: 'paid' as const }] });
    const connection = Object.assign(connectionConfig('acme-crm', 'statuses-acme'), { project: 'acme', statuses: 'register' as const });
    const config = trackerSyncConfig(dir, [connection]);
    config.tracker.base_url = baseUrl;
    config.tracker.api_key = KEY;
    config.projects = { acme: Object.assign(new ProjectConfig(), { project: '2' }) };
    clients = new ProjectClients({ config, defaults: { baseUrl, apiKey: KEY, project: '1', rateLimit: 'off', retries: 1 } });
    const { sync } = createEngine({ store: ds, tracker: clients, connectors: registry, config, logger: new CapturingLogger() });

    const run = await (await sync.start('acme-crm', { mode: 'incremental', trigger: 'cli' })).done;
    expect(run.error).toBeNull();
    const statusesOf = async (project: string) => {
      const client = new TrackerClient({ baseUrl, apiKey: KEY, project, rateLimit: 'off' });
      try {
        return (await client.orders.listStatuses()).map((status) => status.id);
      } finally {
        await client.close();
      }
    };
    expect(await statusesOf('2')).toContain('won-stage');
    expect(await statusesOf('1')).not.toContain('won-stage');
    expect((await clients.client('acme').orders.list({ limit: 1 })).total).toBe(3);
    await sync.shutdown(1000);
  });
});
