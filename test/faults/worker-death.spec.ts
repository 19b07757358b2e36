import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import spreadsheetConnector from '../../connectors/spreadsheet';
import { ConnectionConfig, SyncOptionsConfig } from '../../src/config/config.schema';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { closeReadPools } from '../../src/engine/offload/offload-pool';
import { createSyncService } from '../../src/engine/engine-parts';
import { SyncService } from '../../src/engine/sync.service';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { CapturingLogger, testTracker, trackerSyncConfig } from '../support/engine-harness';
import { FakeTrackerService } from '../support/fake-tracker-service';
import { writeDealsCsv } from './support/deals-csv';

const DEALS = 3_000;
const EXIT_AFTER = 1_500;

/**
 * Issue 43: a spreadsheet's rows are read, mapped and serialised on a worker thread (src/engine/offload/). A
 * worker thread that dies in the middle of the file (TRACKER_SYNC_WORKER_EXIT_AFTER: the real thread exits after
 * mapping that many rows of a real file) fails the run cleanly, with the cause named; what was acknowledged stays
 * acknowledged, the file is not recorded as read, and the next run sends every deal the first did not.
 * `tracker.workers: 0` reads in the main thread, where the hook has no thread to end.
 */
describe('fault suite: the read\'s worker thread dies mid-file', () => {
  let dir: string;
  let service: FakeTrackerService;
  let store: DataSource;
  let tracker: TrackerClient;
  let logger: CapturingLogger;
  let engines: SyncService[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'worker-death-'));
    writeDealsCsv(join(dir, 'deals.csv'), DEALS);
    service = new FakeTrackerService();
    tracker = testTracker(await service.start());
    store = await createStoreDataSource({ dataDir: join(dir, 'data') });
    logger = new CapturingLogger();
    engines = [];
  });
  afterEach(async () => {
    delete process.env.TRACKER_SYNC_WORKER_EXIT_AFTER;
    for (const engine of engines) await engine.shutdown(2000);
    await closeReadPools();
    await tracker.close();
    await service.stop();
    await store.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  function engine(workers: number): SyncService {
    const connection = Object.assign(new ConnectionConfig(), { id: 'sheet', connector: 'spreadsheet', settings: { deals: { path: join(dir, 'deals.csv') } } });
    connection.sync = new SyncOptionsConfig();
    const registry = new ConnectorRegistry();
    registry.register(spreadsheetConnector);
    const config = trackerSyncConfig(join(dir, 'data'), [connection], 100, 4);
    config.tracker.workers = workers;
    const sync = createSyncService(store, tracker, registry, config, logger);
    engines.push(sync);
    return sync;
  }

  const run = async (sync: SyncService) => (await sync.start('sheet', { mode: 'incremental', trigger: 'cli' })).done;
  const fileState = async () => store.query(`SELECT state FROM stream_state WHERE connection_id = 'sheet' AND stream = 'deals'`);
  const acknowledged = async () => (await store.query(`SELECT COUNT(*) AS n FROM record_state WHERE connection_id = 'sheet' AND stream = 'deals'`))[0].n;

  it('fails the run naming the worker, records the file as unread, and the next run sends the rest', async () => {
    process.env.TRACKER_SYNC_WORKER_EXIT_AFTER = String(EXIT_AFTER);
    const failed = await run(engine(1));
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/stream deals: .*worker thread.*(exit|stopped|terminated)/i);
    const firstSent = new Set(service.orderDeliveries);
    expect(firstSent.size).toBeLessThan(EXIT_AFTER + 1); // nothing past what the worker mapped
    const acknowledgedFirst = await acknowledged();
    expect(acknowledgedFirst).toBeGreaterThan(0); // batches answered before the thread died are kept
    expect(acknowledgedFirst).toBeLessThanOrEqual(firstSent.size); // only what the service answered
    expect(await fileState()).toEqual([]); // the file is not recorded as read

    delete process.env.TRACKER_SYNC_WORKER_EXIT_AFTER;
    service.orderDeliveries.length = 0;
    const next = await run(engine(1));
    expect(next.status).toBe('succeeded');
    const all = new Set([...firstSent, ...service.orderDeliveries]);
    expect(all.size).toBe(DEALS); // nothing lost
    expect(next.streams.deals).toMatchObject({ read: DEALS, rejected: 0 });
    expect(next.streams.deals!.sent + next.streams.deals!.unchanged).toBe(DEALS);
    expect(next.streams.deals!.unchanged).toBe(acknowledgedFirst); // sent once, not again
    expect(await acknowledged()).toBe(DEALS);
    expect(await fileState()).toHaveLength(1);
  }, 60_000);

  it('tracker.workers: 0 reads in the main thread: the same file syncs whole', async () => {
    process.env.TRACKER_SYNC_WORKER_EXIT_AFTER = String(EXIT_AFTER); // no worker thread to end
    const summary = await run(engine(0));
    expect(summary.status).toBe('succeeded');
    expect(summary.streams.deals).toMatchObject({ read: DEALS, sent: DEALS });
    expect(new Set(service.orderDeliveries).size).toBe(DEALS);
  }, 60_000);
});
