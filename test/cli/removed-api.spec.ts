import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CrmServer, FixtureHandler, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { removeDir, runCliInProcess, tempDir } from './cli-harness';

/**
 * A CRM that no longer serves the API version a preset targets: Pipedrive's v2 fixture with the v1 users route
 * gone (410), and a connection that still reads deals from the removed v1 list (404). `check` and a failing
 * `sync` name the route, not a bare HTTP error.
 */
const v1Gone: FixtureHandler = (request, server) => (request.path === '/api/v1/users'
  ? { status: 410, body: { success: false, error: 'Gone', errorCode: 410 } }
  : pipedrive.handler(request, server));

describe('a removed API says so', () => {
  let crm: CrmServer;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    crm = await startCrmServer(v1Gone);
    dir = tempDir();
    config = join(dir, 'config.yaml');
    const { rate_limit: _limit, ...settings } = pipedrive.settings(crm.url);
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      tracker: { rate_limit: 'off', retries: 1, timeout_ms: 3000 },
      sandbox: { seed: 'none', budget: 'off' },
      connections: [
        { id: 'pd', connector: 'generic-crm', schedule: '*/10 * * * *', settings },
        {
          id: 'pd-old', connector: 'generic-crm', schedule: '*/10 * * * *',
          settings: { ...settings, streams: { managers: { enabled: false }, clients: { enabled: false }, deals: { request: { path: '/v1/deals' } } } },
        },
      ],
    }));
  });
  afterAll(async () => {
    await crm?.close();
    removeDir(dir);
  });

  it('check names a 410 on the preset\'s route', async () => {
    const result = await runCliInProcess(['check', 'pd', '--config', config]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      'the CRM does not serve `GET /api/v1/users`: the preset may target an API version it no longer has (HTTP 410: ',
    );
  });

  it('a run failing on a 404 names the route it asked for', async () => {
    const result = await runCliInProcess(['sync', 'pd-old', '--config', config]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      'the CRM does not serve `GET /api/v1/deals`: the preset may target an API version it no longer has (HTTP 404: ',
    );
    // the removed route is not in Pipedrive's documents: the spec validation saw it too
    expect(crm.takeViolations().map((v) => `${v.part} ${v.route}`)).toContain('route GET /api/v1/deals');
  });
});
