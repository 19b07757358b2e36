import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { ConnectionConfig, StatusMode, SyncOptionsConfig, TrackerSyncConfig } from '../../src/config/config.schema';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { loadConnectors } from '../../src/connectors/plugin-loader';
import { RunTriggerService } from '../../src/application/runs/run-trigger.service';
import type { RunSummary } from '../../src/engine/engine-types';
import { SyncService } from '../../src/engine/sync.service';
import { closeReadPools } from '../../src/engine/offload/offload-pool';
import { createSyncService } from '../../src/engine/engine-parts';
import { SandboxClientEntity } from '../../src/sandbox/storage/client.entity';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { RateLimitSetting } from '../../src/tracker/http/rate-limits';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { CapturingLogger } from '../support/engine-harness';
import { ServiceCallRecorder } from './service-call-recorder';

/**
 * One connection synced end to end with real parts: the connector registry as the daemon loads it
 * (loadConnectors), a SQLite store in a temp folder, the typed client with no client-side limits, and a
 * sandbox (the service's offline twin) on loopback with the demo seed (visits '1000001'..'1002000').
 */
export interface E2eOptions {
  connectionId: string;
  connector: string;
  /** the connection's `settings:` as a user writes them in the config */
  settings: Record<string, unknown>;
  batchSize?: number;
  sync?: Partial<SyncOptionsConfig>;
  /** the client's rate limits; default 'off'. A budget turns on the Limits table's spacing (order list with visits) */
  trackerRateLimit?: RateLimitSetting;
  /** send the service calls through a loopback recorder (`E2eSync.serviceCalls`) that times them */
  recordServiceCalls?: boolean;
  /** the connection's `statuses:` (default map) */
  statuses?: StatusMode;
  /** `tracker.workers`: threads that read a spreadsheet's files (default: none under jest, the reads stay in-thread) */
  workers?: number;
}

export class E2eSync {
  readonly logger = new CapturingLogger();
  private constructor(
    readonly options: E2eOptions,
    readonly sandbox: SandboxHarness,
    readonly registry: ConnectorRegistry,
    readonly store: DataSource,
    readonly tracker: TrackerClient,
    readonly dataDir: string,
    /** the service calls with their arrival times, when `recordServiceCalls` is set */
    readonly serviceCalls: ServiceCallRecorder | null = null,
  ) {}

  static async start(options: E2eOptions): Promise<E2eSync> {
    const loaderLines: string[] = [];
    const registry = await loadConnectors([], { log: (m) => loaderLines.push(m), warn: (m) => loaderLines.push(m) });
    const problems = registry.validateSettings(options.connector, options.settings, 'connections[0]');
    if (problems.length) throw new Error(`settings of ${options.connectionId} do not validate:\n${problems.join('\n')}`);
    const sandbox = await SandboxHarness.start();
    const dataDir = mkdtempSync(join(tmpdir(), `e2e-${options.connectionId}-`));
    const store = await createStoreDataSource({ dataDir });
    const recorder = options.recordServiceCalls ? await ServiceCallRecorder.start(sandbox.baseUrl) : null;
    const tracker = new TrackerClient({
      baseUrl: recorder?.url ?? sandbox.baseUrl, apiKey: sandbox.apiKey, project: String(sandbox.projectId),
      rateLimit: options.trackerRateLimit ?? 'off', retries: 2, retryBaseMs: 5, timeoutMs: 10_000,
    });
    return new E2eSync(options, sandbox, registry, store, tracker, dataDir, recorder);
  }

  /** A fresh engine on the same store: what the daemon would be after a restart. */
  engine(): SyncService {
    const connection = Object.assign(new ConnectionConfig(), {
      id: this.options.connectionId, connector: this.options.connector, settings: this.options.settings,
      ...(this.options.statuses ? { statuses: this.options.statuses } : {}),
    });
    connection.sync = Object.assign(new SyncOptionsConfig(), this.options.sync ?? {});
    const config = new TrackerSyncConfig();
    config.data_dir = this.dataDir;
    config.tracker.batch_size = this.options.batchSize ?? 500;
    config.tracker.rate_limit = 'off';
    if (this.options.workers !== undefined) config.tracker.workers = this.options.workers;
    config.connections = [connection];
    return createSyncService(this.store, this.tracker, this.registry, config, this.logger, { workDir: join(this.dataDir, 'work') });
  }

  /**
   * One incremental run, as `npm run cli -- sync <connection>` starts it: through the trigger path, so the
   * connection's outbound flows without a schedule of their own follow it (in `followedBy`).
   */
  run(): Promise<RunSummary> {
    return this.triggered({ kind: 'sync', mode: 'incremental' });
  }

  /** A re-send of a run's rejected records, as `npm run cli -- retry <run>` starts it. */
  async retry(runId: number): Promise<RunSummary> {
    const engine = this.engine();
    const triggers = new RunTriggerService(engine);
    try {
      return await (await triggers.retryRejected(runId, 'cli')).done;
    } finally {
      triggers.onModuleDestroy();
      await engine.shutdown(1000);
    }
  }

  /** One write-back pass, as `npm run cli -- write-back <connection>` starts it. */
  writeBack(): Promise<RunSummary> {
    return this.triggered({ kind: 'outbound', flow: 'write_back' });
  }

  /** One lead delivery pass, as `npm run cli -- deliver-leads <connection>` starts it. */
  leadsPass(): Promise<RunSummary> {
    return this.triggered({ kind: 'outbound', flow: 'leads' });
  }

  /** A run started as the CLI starts one (RunTriggerService, trigger cli), on a fresh engine; its summary. */
  private async triggered(request: Parameters<RunTriggerService['start']>[2]): Promise<RunSummary> {
    const engine = this.engine();
    const triggers = new RunTriggerService(engine);
    try {
      const { done } = await triggers.start(this.options.connectionId, 'cli', request);
      return await done;
    } finally {
      triggers.onModuleDestroy();
      await engine.shutdown(1000);
    }
  }

  /** Records visits in the sandbox (as the service's tracking code would): orders on them are then saved. */
  async registerVisits(ids: string[], date = '2024-01-01T00:00:00+0000'): Promise<void> {
    const answer = await this.sandbox.post('_sandbox/visits', ids.map((id) => ({ id, date })));
    if (answer.status !== 200) throw new Error(`_sandbox/visits answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }

  /**
   * The custom fields each client was imported with, by CRM id. The service's client list does not show
   * them, so this one value is read from the sandbox's own store.
   */
  async clientFields(): Promise<Map<string, Record<string, unknown>>> {
    const dataSource = this.sandbox.app.get<DataSource>(SandboxHarness.dataSourceToken);
    const rows = await dataSource.getRepository(SandboxClientEntity).findBy({ projectId: this.sandbox.projectId });
    return new Map(rows.map((row) => [row.externalId, row.fields]));
  }

  /** Lines the engine logged, for failure messages. */
  log(): string {
    return this.logger.lines.join('\n');
  }

  async stop(): Promise<void> {
    if (this.options.workers) await closeReadPools();
    await this.tracker.close();
    if (this.store.isInitialized) await this.store.destroy();
    await this.sandbox.close();
    await this.serviceCalls?.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
