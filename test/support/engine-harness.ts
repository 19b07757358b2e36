import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { ConnectionConfig, SyncOptionsConfig, TrackerSyncConfig } from '../../src/config/config.schema';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { EngineLogger } from '../../src/engine/engine-logger';
import { EngineOptions } from '../../src/engine/engine-options';
import { SyncService } from '../../src/engine/sync.service';
import { createSyncService } from '../../src/engine/engine-parts';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { sql, StoreDriver, storeOptionsFor } from './store-drivers';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { FakeTrackerService } from './fake-tracker-service';
import { memoryConnector, memorySource, MemorySource } from './memory-connector';

export interface HarnessOptions {
  connectionId?: string;
  batchSize?: number;
  concurrency?: number;
  sync?: Partial<SyncOptionsConfig>;
  source?: Partial<MemorySource>;
  engine?: EngineOptions;
  retries?: number;
  dataDir?: string;
  /** the store's driver (default sqlite); 'postgres' uses a fresh schema of TEST_DATABASE_URL */
  driver?: StoreDriver;
  /** share a running fake service (e.g. with a child process) */
  service?: FakeTrackerService;
}

/** Lines the engine logged, for assertions (and quiet test output). */
export class CapturingLogger implements EngineLogger {
  readonly lines: string[] = [];
  log = (m: string) => void this.lines.push(`log ${m}`);
  warn = (m: string) => void this.lines.push(`warn ${m}`);
  error = (m: string) => void this.lines.push(`error ${m}`);
  debug = (m: string) => void this.lines.push(`debug ${m}`);
}

export function connectionConfig(id: string, sourceName: string, sync: Partial<SyncOptionsConfig> = {}): ConnectionConfig {
  const connection = Object.assign(new ConnectionConfig(), { id, connector: 'memory', settings: { source: sourceName } });
  connection.sync = Object.assign(new SyncOptionsConfig(), sync);
  return connection;
}

export function trackerSyncConfig(dataDir: string, connections: ConnectionConfig[], batchSize = 500, concurrency = 4): TrackerSyncConfig {
  const config = new TrackerSyncConfig();
  config.data_dir = dataDir;
  config.tracker.batch_size = batchSize;
  config.tracker.concurrency = concurrency;
  config.tracker.rate_limit = 'off';
  config.connections = connections;
  return config;
}

export function memoryRegistry(): ConnectorRegistry {
  const registry = new ConnectorRegistry();
  registry.register(memoryConnector);
  return registry;
}

export function testTracker(baseUrl: string, retries = 2): TrackerClient {
  return new TrackerClient({ baseUrl, apiKey: 'test-key', project: '1', rateLimit: 'off', retries, retryBaseMs: 5, timeoutMs: 5000 });
}

/** Real parts: a SQLite store in a temp folder, a loopback fake service, the memory connector. */
export class EngineHarness {
  readonly service: FakeTrackerService;
  private readonly ownsService: boolean;
  readonly logger = new CapturingLogger();
  readonly connectionId: string;
  readonly source: MemorySource;
  readonly sourceName: string;
  dataDir: string;
  dataSource!: DataSource;
  /** the PostgreSQL URL of this test's schema (undefined on SQLite) */
  storeUrl?: string;
  tracker!: TrackerClient;
  sync!: SyncService;
  config!: TrackerSyncConfig;
  private readonly ownsDir: boolean;
  private dropStore: () => Promise<void> = async () => undefined;

  constructor(private readonly options: HarnessOptions = {}) {
    this.connectionId = options.connectionId ?? 'demo';
    this.service = options.service ?? new FakeTrackerService();
    this.ownsService = !options.service;
    this.ownsDir = !options.dataDir;
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'engine-test-'));
    this.sourceName = `${this.connectionId}-${Math.random().toString(36).slice(2)}`;
    this.source = memorySource(this.sourceName, options.source);
  }

  async start(): Promise<this> {
    const baseUrl = this.ownsService ? await this.service.start() : this.service.baseUrl!;
    const store = await storeOptionsFor(this.options.driver ?? 'sqlite', this.dataDir);
    this.dropStore = store.cleanup;
    this.storeUrl = store.options.url;
    this.dataSource = await createStoreDataSource(store.options);
    this.tracker = testTracker(baseUrl, this.options.retries ?? 2);
    this.config = trackerSyncConfig(this.dataDir, [connectionConfig(this.connectionId, this.sourceName, this.options.sync)], this.options.batchSize ?? 500, this.options.concurrency ?? 4);
    this.sync = this.newSyncService();
    return this;
  }

  newSyncService(engine: EngineOptions = this.options.engine ?? {}): SyncService {
    return createSyncService(this.dataSource, this.tracker, memoryRegistry(), this.config, this.logger, engine);
  }

  /** Starts a run and waits for its summary. */
  async run(mode: 'incremental' | 'full' | 'since' = 'incremental', since?: string) {
    const { done } = await this.sync.start(this.connectionId, { mode, since, trigger: 'cli' });
    return done;
  }

  /** SQL with '?' placeholders on either driver. */
  query<T = any>(text: string, params: unknown[] = []): Promise<T> {
    return sql<T>(this.dataSource, text, params);
  }

  async cursor(stream = 'deals'): Promise<string | null> {
    const rows = await this.query('SELECT value FROM cursor WHERE connection_id = ? AND stream = ?', [this.connectionId, stream]);
    return rows[0]?.value ?? null;
  }

  async stop(): Promise<void> {
    await this.sync?.shutdown(2000);
    await this.tracker?.close();
    if (this.ownsService) await this.service.stop();
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
    await this.dropStore();
    if (this.ownsDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
