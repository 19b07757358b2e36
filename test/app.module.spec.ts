/**
 * The daemon builds its one TrackerClient in app.module.ts from the config's `tracker` section (the service's
 * address, key, project and limits) and reports every request to the metrics; it provides the ConnectorRegistry
 * loaded at start-up (built-ins and `connector_paths`). Booted as `npm start` does.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorRegistry } from '../src/connectors/connector-registry';
import { TrackerClient } from '../src/tracker';
import { RunningDaemon, startDaemon, tempDir } from './daemon/daemon-harness';
import { ScriptedServer } from './tracker/scripted-server';

describe("the daemon's TrackerClient (app.module.ts)", () => {
  const dir = tempDir('app-client');
  let server: ScriptedServer;
  let running: RunningDaemon | undefined;

  beforeAll(async () => {
    server = await ScriptedServer.start();
    const config = join(dir.path, 'tracker-sync.yaml');
    writeFileSync(config, [
      `data_dir: ${JSON.stringify(join(dir.path, 'data'))}`,
      'server: { host: 127.0.0.1 }',
      `tracker: { base_url: ${JSON.stringify(server.url)}, api_key: app-key, project: "3", rate_limit: off, retries: 0 }`,
      'connector_paths: [/nonexistent/plugins]',
      'connections: []',
      '',
    ].join('\n'));
    running = await startDaemon({}, config);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    await server.close();
    dir.remove();
  });

  it('is built from the tracker section: base URL, Api-key and project', async () => {
    const client = running!.daemon.app.get(TrackerClient);
    server.reset();
    await client.managers.list();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].path).toBe('/project/integration/manager/list');
    expect(server.requests[0].query.get('project')).toBe('3');
    expect(server.requests[0].headers['api-key']).toBe('app-key');
  });

  it('provides the loaded ConnectorRegistry; a bad plugin path is a recorded failure, not a crash', () => {
    const registry = running!.daemon.app.get(ConnectorRegistry);
    expect(registry.get('generic-crm')).toBeDefined();
    expect(registry.get('example-custom')).toBeDefined();
    expect(registry.failures).toContainEqual({ path: '/nonexistent/plugins', reason: 'folder does not exist' });
  });

  it('reports its requests to the metrics', async () => {
    await running!.daemon.app.get(TrackerClient).managers.list();
    const metrics = await (await fetch(`${running!.url}/metrics`)).text();
    expect(metrics).toMatch(/tracker_sync_request_duration_seconds_count\{operation="managers.list"\} [1-9]/);
  });
});
