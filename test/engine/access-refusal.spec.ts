import connector from '../../connectors/generic-crm';
import { ConnectionConfig } from '../../src/config/config.schema';
import { createSyncService } from '../../src/engine/engine-parts';
import { TrackerClient } from '../../src/tracker/tracker-client';
import * as amocrm from '../fixtures/crm/amocrm';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { EngineHarness, memoryRegistry } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

/**
 * A refused Api-key or project (or a CRM refusing its token) is the run's problem: the run fails at once with
 * one message naming what was refused and what was answered; no record is rejected; nothing is checkpointed.
 */
describe('engine: a refused key fails the run and rejects no record', () => {
  let h: EngineHarness;
  let sandbox: SandboxHarness | undefined;
  let crm: CrmServer | undefined;

  afterEach(async () => {
    await h?.stop();
    await sandbox?.close();
    await crm?.close();
    sandbox = undefined;
    crm = undefined;
  });

  function fillSource() {
    h.source.managers = Array.from({ length: 10 }, (_, i) => ({ id: `m${i + 1}`, name: `Manager ${i + 1}`, email: `m${i + 1}@example.com` }));
    h.source.clients = [{ id: 'c1', name: 'Client', phones: ['+79000000001'], updated_at: new Date('2025-03-01T00:00:00Z') }];
    h.source.deals = makeDeals(30);
  }

  /** The harness's engine, talking to the sandbox with the given key and project. */
  async function againstSandbox(key: (s: SandboxHarness) => string, project: (s: SandboxHarness) => string) {
    h = await new EngineHarness({ batchSize: 10 }).start();
    sandbox = await SandboxHarness.start();
    await h.tracker.close();
    h.tracker = new TrackerClient({ baseUrl: sandbox.baseUrl, apiKey: key(sandbox), project: project(sandbox), rateLimit: 'off', retries: 2, retryBaseMs: 5 });
    h.sync = h.newSyncService();
    fillSource();
  }

  async function expectNothingKept(runId: number) {
    expect(await h.query('SELECT COUNT(*) AS n FROM rejected_record')).toEqual([{ n: 0 }]);
    expect(await h.query('SELECT COUNT(*) AS n FROM record_state')).toEqual([{ n: 0 }]);
    expect(await h.query('SELECT COUNT(*) AS n FROM cursor')).toEqual([{ n: 0 }]);
    const [run] = await h.query('SELECT status, streams FROM run WHERE id = ?', [runId]);
    expect(run.status).toBe('failed');
  }

  it('a wrong TRACKER_API_KEY (sandbox: HTTP 401) fails the run before any record is rejected', async () => {
    await againstSandbox(() => 'wrong-key-0000', (s) => String(s.projectId));
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      'stream managers: the service refused the Api-key (tracker.api_key, env TRACKER_API_KEY); the service said HTTP 401: ' +
        'authentication_failed: Api-key is not valid details={} (on managers.add (POST /project/integration/manager/add))',
    );
    expect(run.error).not.toContain('wrong-key-0000');
    expect(run.lasting).toBe(true); // no retry lifts it: cluster mode does not try the job again
    expect(run.rejectedCount).toBe(0);
    expect(run.streams.managers?.rejected ?? 0).toBe(0);
    expect(run.streams.deals).toBeUndefined(); // later streams never start
    await expectNothingKept(run.runId);
  });

  it('a project the key has no access to (sandbox: HTTP 403) fails the run naming the project', async () => {
    await againstSandbox((s) => s.apiKey, () => '987654');
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.lasting).toBe(true);
    expect(run.error).toMatch(/^stream managers: the service refused project 987654 for this Api-key \(tracker\.project, env TRACKER_PROJECT\); the service said HTTP 403: access_denied: project 987654: the Api-key has no access to it/);
    expect(run.rejectedCount).toBe(0);
    await expectNothingKept(run.runId);
  });

  it('the refusal as an error body with HTTP 200, in the middle of the deals: the run fails, no deal is rejected', async () => {
    h = await new EngineHarness({ batchSize: 10, concurrency: 1 }).start();
    fillSource();
    h.source.managers = [];
    h.source.clients = [];
    // The key is revoked after the first batch of deals: that batch stays acknowledged, nothing after it is kept.
    h.service.script = (call) =>
      call.path === '/project/add-orders' && !call.ids.includes('d1')
        ? { status: 200, body: { status: 'error', error: 'authentication_failed', description: 'Api-key is not valid' } }
        : undefined;
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^stream deals: the service refused the Api-key .*; the service said HTTP 401: authentication_failed: Api-key is not valid: answered with HTTP 200/);
    expect(run.rejectedCount).toBe(0);
    expect(run.streams.deals).toMatchObject({ sent: 10, rejected: 0 });
    expect(h.service.callsTo('/project/add-orders')).toHaveLength(2); // not retried
    expect(await h.query('SELECT COUNT(*) AS n FROM rejected_record')).toEqual([{ n: 0 }]);
    const states = await h.query(`SELECT external_id FROM record_state WHERE stream = 'deals'`);
    expect(states).toHaveLength(10);
    expect(await h.cursor()).toBe('2025-03-10T09:00:09.000Z'); // d10, written with the acknowledged batch, not moved since
  });

  it('a CRM refusing its token fails the run naming the connection and the CRM’s answer', async () => {
    h = await new EngineHarness({ connectionId: 'amo' }).start();
    crm = await startCrmServer(amocrm.handler);
    const registry = memoryRegistry();
    registry.register(connector);
    const connection = Object.assign(new ConnectionConfig(), {
      id: 'amo', connector: 'generic-crm', settings: { ...amocrm.settings(crm.url), token: 'revoked-token-777' },
    });
    h.config.connections = [connection];
    h.sync = createSyncService(h.dataSource, h.tracker, registry, h.config, h.logger);
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(
      /^connection amo, stream managers, GET http:\/\/127\.0\.0\.1:\d+\/api\/v4\/users\S*: the CRM refused the connection's credentials \(settings\.token \/ settings\.auth\): HTTP 401: .*Invalid token/,
    );
    expect(run.error).not.toContain('revoked-token-777');
    expect(run.rejectedCount).toBe(0);
    expect(h.service.calls).toHaveLength(0);
    expect(crm.requests).toHaveLength(1); // a refusal is not retried
    await expectNothingKept(run.runId);
  });
});
