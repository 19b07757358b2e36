/**
 * An outbound flow reads the service in the connection's own project: a write-back pass of a connection of project
 * acme asks every question of the service with acme's number. The real engine (memory connector with write-back's
 * CRM actions, SQLite store) against a loopback service that records each call's project.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ProjectConfig } from '../../src/config/config.schema';
import type { ConnectorDefinition } from '../../src/connectors/connector-definition';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import type { CrmActionsCapability } from '../../src/connectors/crm-actions';
import { createEngine } from '../../src/engine/engine-parts';
import { ProjectClients } from '../../src/projects/project-clients';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { CapturingLogger, connectionConfig, trackerSyncConfig } from '../support/engine-harness';
import { memoryConnector, memorySource } from '../support/memory-connector';

describe('outbound flows in the connection\'s project', () => {
  let server: Server;
  let dir: string;
  let ds: DataSource;
  let clients: ProjectClients;
  const projects: (string | null)[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      projects.push(new URL(req.url ?? '/', 'http://x').searchParams.get('project'));
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'success', data: [], total: 0 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'project-outbound-'));
    ds = await createStoreDataSource({ dataDir: dir });
  });

  afterAll(async () => {
    await clients?.close();
    await ds?.destroy();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write-back pass of a connection of acme reads acme\'s orders, not the tracker: project\'s', async () => {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    memorySource('outbound-acme');
    const registry = new ConnectorRegistry();
    // a CRM that offers write-back's actions (nothing is written: the service answers no orders)
    const actions: CrmActionsCapability<object> = {
      block: (_settings, key) => (key === 'write_back' ? { fields: { utm_source: 'UTM' }, since_days: 30 } : null),
      open: () => ({ has: (name: string) => name === 'update_deals', reads: () => false, run: async () => [] }),
      flowKeys: () => [],
    };
    registry.register({ ...memoryConnector, actions } as ConnectorDefinition);
    const config = trackerSyncConfig(dir, [Object.assign(connectionConfig('acme-crm', 'outbound-acme'), { project: 'acme' })]);
    Object.assign(config.tracker, { base_url: baseUrl, api_key: 'agency-key-0001', project: '100' });
    config.projects = { acme: Object.assign(new ProjectConfig(), { project: '12345' }) };
    clients = new ProjectClients({ config, defaults: { baseUrl, apiKey: 'agency-key-0001', project: '100', rateLimit: 'off', retries: 0 } });
    const { sync } = createEngine({ store: ds, tracker: clients, connectors: registry, config, logger: new CapturingLogger() });

    const run = await (await sync.outbound('acme-crm', 'write_back', 'cli')).done;
    expect(run.error).toBeNull();
    expect(projects.length).toBeGreaterThan(0);
    expect(new Set(projects)).toEqual(new Set(['12345']));
    await sync.shutdown(1000);
  });
});
