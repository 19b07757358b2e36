import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import spreadsheetConnector from '../../connectors/spreadsheet';
import { ConnectionConfig, SyncOptionsConfig } from '../../src/config/config.schema';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import type { EngineOptions } from '../../src/engine/engine-options';
import { fingerprinter } from '../../src/engine/pipeline/fingerprint';
import { DEAL_MAPPING_VERSION } from '../../src/engine/mappings/deals';
import { SyncService } from '../../src/engine/sync.service';
import { createSyncService } from '../../src/engine/engine-parts';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { CapturingLogger, EngineHarness, testTracker, trackerSyncConfig } from '../support/engine-harness';
import { FakeTrackerService } from '../support/fake-tracker-service';
import { makeDeals } from '../support/memory-connector';

const BUMPED: EngineOptions = { mappingVersions: { deals: DEAL_MAPPING_VERSION + 1 } };

describe('engine: a bumped mapping version sends its stream again (spreadsheet: file hash and row hashes)', () => {
  let dir: string;
  let service: FakeTrackerService;
  let store: DataSource;
  let tracker: TrackerClient;
  let logger: CapturingLogger;
  let engines: SyncService[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mapping-version-'));
    writeFileSync(join(dir, 'deals.csv'), 'id,title,created_at\nD1,one,2025-03-01 10:00\nD2,two,2025-03-02 10:00\nD3,three,2025-03-03 10:00\n');
    service = new FakeTrackerService();
    tracker = testTracker(await service.start());
    store = await createStoreDataSource({ dataDir: join(dir, 'data') });
    logger = new CapturingLogger();
    engines = [];
  });
  afterEach(async () => {
    for (const engine of engines) await engine.shutdown(2000);
    await tracker.close();
    await service.stop();
    await store.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The daemon's engine over the same store, file and service; `options` is what a release would change. */
  function engine(options: EngineOptions = {}): SyncService {
    const connection = Object.assign(new ConnectionConfig(), { id: 'sheet', connector: 'spreadsheet', settings: { deals: { path: join(dir, 'deals.csv') } } });
    connection.sync = new SyncOptionsConfig();
    const registry = new ConnectorRegistry();
    registry.register(spreadsheetConnector);
    const sync = createSyncService(store, tracker, registry, trackerSyncConfig(join(dir, 'data'), [connection]), logger, options);
    engines.push(sync);
    return sync;
  }

  async function run(sync: SyncService) {
    service.orderDeliveries.length = 0;
    logger.lines.length = 0;
    const summary = await (await sync.start('sheet', { mode: 'incremental', trigger: 'cli' })).done;
    expect(summary.status).toBe('succeeded');
    const skipped = logger.lines.some((line) => line.includes('deals.csv is unchanged since the last sync'));
    return { deals: summary.streams.deals, sent: [...service.orderDeliveries].sort(), skipped };
  }

  const unchangedInPreview = async (sync: SyncService) => (await sync.preview('sheet')).streams[0].records.map((r) => r.unchanged);

  it('re-reads the unchanged file and re-sends every row once; the same version sends nothing', async () => {
    const current = engine();
    expect(await run(current)).toMatchObject({ sent: ['D1', 'D2', 'D3'], skipped: false });
    expect(await run(current)).toMatchObject({ sent: [], skipped: true }); // the same release: the file is skipped
    expect(await unchangedInPreview(current)).toEqual([true, true, true]);

    const next = engine(BUMPED);
    expect(await unchangedInPreview(next)).toEqual([false, false, false]); // preview fingerprints as a run does
    const bumped = await run(next);
    expect(bumped).toMatchObject({ sent: ['D1', 'D2', 'D3'], skipped: false });
    expect(bumped.deals).toMatchObject({ read: 3, sent: 3, unchanged: 0 });

    expect(await run(next)).toMatchObject({ sent: [], skipped: true });
    expect(await unchangedInPreview(next)).toEqual([true, true, true]);
  });

  it('keeps the version in the fingerprints and the file state, so a restart of the same release skips the file', async () => {
    expect(await run(engine())).toMatchObject({ sent: ['D1', 'D2', 'D3'] });
    expect(await run(engine())).toMatchObject({ sent: [], skipped: true }); // a new process, same version
    const fingerprints = await store.query(`SELECT fingerprint FROM record_state WHERE connection_id = 'sheet' ORDER BY external_id`);
    expect(fingerprints.map((r: { fingerprint: string }) => r.fingerprint.split(':')[0])).toEqual(Array(3).fill(`s${DEAL_MAPPING_VERSION}`));
    const state = await store.query(`SELECT state FROM stream_state WHERE connection_id = 'sheet' AND stream = 'deals'`);
    expect(typeof state[0].state === 'string' ? JSON.parse(state[0].state) : state[0].state).toMatchObject({ engine_mapping_version: DEAL_MAPPING_VERSION, content_hash: expect.any(String) });
  });
});

describe('engine: a bumped mapping version sends its stream again (payload fingerprints)', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await new EngineHarness().start();
  });
  afterEach(() => h.stop());

  it('re-sends the deals acknowledged under the old version, and not the clients, whose version is the same', async () => {
    h.source.deals = makeDeals(5);
    h.source.clients = [{ id: 'c1', name: 'Anna', updated_at: new Date('2025-03-10T09:00:00Z') }];
    const first = await h.run();
    expect(first.streams).toMatchObject({ deals: { sent: 5 }, clients: { sent: 1 } });

    h.sync = h.newSyncService(BUMPED);
    h.service.orderDeliveries.length = 0;
    const bumped = await h.run();
    expect(bumped.streams).toMatchObject({ deals: { read: 5, sent: 5, unchanged: 0 }, clients: { read: 1, sent: 0, unchanged: 1 } });
    expect(h.service.orderDeliveries.sort()).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);

    h.service.orderDeliveries.length = 0;
    const again = await h.run();
    expect(again.streams.deals).toMatchObject({ read: 5, sent: 0, unchanged: 5 });
    expect(h.service.orderDeliveries).toEqual([]);
  });
});

describe('fingerprints', () => {
  it('carry the version, keep the two kinds apart, and fit record_state.fingerprint (64 characters)', () => {
    const v1 = fingerprinter(1);
    const v12 = fingerprinter(12);
    expect(v1.payload({ id: 'd1' })).toMatch(/^p1:[A-Za-z0-9+/=]{28}$/);
    expect(v1.payload({ id: 'd1' })).not.toBe(v12.payload({ id: 'd1' }));
    expect(v1.source('abc')).toBe('s1:abc');
    expect(v12.source('x'.repeat(200))).toBe(`s12:${'x'.repeat(60)}`);
  });
});
