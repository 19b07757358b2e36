import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { SyncService } from '../../src/engine/sync.service';
import { createSyncService } from '../../src/engine/engine-parts';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { CapturingLogger, connectionConfig, memoryRegistry, trackerSyncConfig } from '../support/engine-harness';
import { makeDeals, memorySource } from '../support/memory-connector';

/** The engine against the sandbox, the service's offline twin (its own rules, its own SQLite). */
describe('engine against the sandbox', () => {
  let sandbox: SandboxHarness;
  let dir: string;
  let store: DataSource;
  let tracker: TrackerClient;
  let project: number | undefined;

  async function setUp(options: { faults?: number; clientTimeoutMs?: number } = {}) {
    sandbox = await SandboxHarness.start({ faults: options.faults ?? 0, clientTimeoutMs: options.clientTimeoutMs });
    project = undefined;
    for (let attempt = 0; project === undefined && attempt < 50; attempt++) project = await sandbox.newProject('engine').catch(() => undefined);
    dir = mkdtempSync(join(tmpdir(), 'engine-sandbox-'));
    store = await createStoreDataSource({ dataDir: dir });
    tracker = new TrackerClient({
      baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, project: String(project), rateLimit: 'off',
      retries: 8, retryBaseMs: 5, timeoutMs: options.clientTimeoutMs ?? 5000,
    });
  }

  afterEach(async () => {
    await tracker?.close();
    await store?.destroy();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function engine(sourceName: string, batchSize = 100): SyncService {
    const config = trackerSyncConfig(dir, [connectionConfig('sheet', sourceName)], batchSize, 4);
    return createSyncService(store, tracker, memoryRegistry(), config, new CapturingLogger());
  }

  it('managers, clients and deals reach the sandbox; a second run sends nothing', async () => {
    await setUp();
    const source = memorySource('sandbox-basic');
    source.managers = [{ id: 'm1', name: 'Anna', email: 'anna@example.com' }];
    source.clients = [{ id: 'c1', name: 'Client', phones: ['+79000000001'], updated_at: new Date('2025-03-01T00:00:00Z') }];
    source.deals = makeDeals(250).map((d) => ({ ...d, client_id: 'c1', manager_id: 'm1' }));
    const sync = engine('sandbox-basic');
    const first = await (await sync.start('sheet', { mode: 'incremental', trigger: 'cli' })).done;
    expect(first.status).toBe('succeeded');
    // odd deals carry a visit the sandbox does not know: it holds them (skipped_by_waiting_visit_info)
    expect(first.counters).toMatchObject({ processed: 250, uploaded: 125, skipped_by_waiting_visit_info: 125 });
    expect(first.streams).toMatchObject({ managers: { sent: 1 }, clients: { sent: 1 }, deals: { sent: 250, rejected: 0, sent_without_visit: 125 } });
    const orders = await tracker.orders.list({ limit: 10 });
    expect(orders.total).toBe(125);
    expect((await tracker.managers.list()).data.map((m) => m.name)).toContain('Anna');

    const second = await (await sync.start('sheet', { mode: 'incremental', trigger: 'cli' })).done;
    expect(second.streams.deals).toMatchObject({ unchanged: 250, sent: 0 });
    expect(second.counters.uploaded).toBe(0);
  });

  it('fault mode (20 % of requests answered 429, 500, too late or dropped): every deal arrives exactly once', async () => {
    await setUp({ faults: 0.2, clientTimeoutMs: 600 });
    const source = memorySource('sandbox-faults');
    source.deals = makeDeals(1000).map((d) => ({ ...d, visit_id: null }));
    const sync = engine('sandbox-faults', 50);
    const run = await (await sync.start('sheet', { mode: 'incremental', trigger: 'cli' })).done;
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    const faultsOff = new TrackerClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, project: String(project), rateLimit: 'off', retries: 20, retryBaseMs: 1 });
    try {
      const listed = await faultsOff.orders.list({ limit: 1 });
      expect(listed.total).toBe(1000);
    } finally {
      await faultsOff.close();
    }
  });
});
