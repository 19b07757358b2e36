import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import genericCrmConnector from '../../../connectors/generic-crm';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { ConnectionConfig, SyncOptionsConfig, TrackerSyncConfig } from '../../../src/config/config.schema';
import { ConnectorRegistry } from '../../../src/connectors/connector-registry';
import type { EngineLogger } from '../../../src/engine/engine-logger';
import type { RunSummary } from '../../../src/engine/engine-types';
import { SyncService } from '../../../src/engine/sync.service';
import { createSyncService } from '../../../src/engine/engine-parts';
import { createSandboxApp } from '../../../src/sandbox/sandbox-app';
import { SandboxInfo } from '../../../src/sandbox/sandbox-info';
import type { SandboxOptions } from '../../../src/sandbox/sandbox-options';
import { createStoreDataSource } from '../../../src/store/store-data-source';
import type { TrackerRequestEvent } from '../../../src/tracker/http/tracker-http';
import { TrackerClient } from '../../../src/tracker/tracker-client';

/** An in-process sandbox on loopback port 0; `project()` makes an empty project so each case counts its own orders. */
export class InProcessSandbox {
  private constructor(readonly app: INestApplication, readonly baseUrl: string, readonly apiKey: string) {}

  static async start(options: Partial<SandboxOptions> = {}): Promise<InProcessSandbox> {
    const app = await createSandboxApp({ db: ':memory:', seed: 'demo', apiKey: 'bad-input-key', budget: 'off', ...options }, { prefix: 'api/v1' });
    await app.listen(0, '127.0.0.1');
    const info = app.get(SandboxInfo).getSandboxInfo();
    return new InProcessSandbox(app, `${await app.getUrl()}/api/v1`, info.apiKey);
  }

  /** A client that sees the service as it is: many quick retries get past injected faults. */
  client(project: string, options: { timeoutMs?: number; retries?: number } = {}): TrackerClient {
    return new TrackerClient({
      baseUrl: this.baseUrl, apiKey: this.apiKey, project, rateLimit: 'off',
      retries: options.retries ?? 30, retryBaseMs: 1, timeoutMs: options.timeoutMs ?? 5_000,
    });
  }

  /**
   * A new, empty project. In fault mode the create call itself may be answered with a fault, and the client does
   * not repeat a create after a timeout or 5xx (it may have landed); a stray extra project is harmless here, so the
   * test asks again.
   */
  async project(name = 'case'): Promise<string> {
    const client = new TrackerClient({ baseUrl: this.baseUrl, apiKey: this.apiKey, rateLimit: 'off', retries: 30, retryBaseMs: 1, timeoutMs: 5_000 });
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const created = await client.projects.create({ name, currency: 'RUB' });
          return String(created.data.project_id);
        } catch (e) {
          if (attempt >= 20) throw e;
        }
      }
    } finally {
      await client.close();
    }
  }

  /** Every order id of a project, read through the API page by page. */
  async orderIds(project: string): Promise<string[]> {
    const client = this.client(project);
    try {
      const ids: string[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await client.orders.list({ limit: 1000, offset });
        ids.push(...page.data.map((o) => o.id));
        if (page.data.length < 1000) return ids;
      }
    } finally {
      await client.close();
    }
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

export interface EngineUnderTestOptions {
  batchSize?: number;
  timeoutMs?: number;
  retries?: number;
}

export interface ConnectionSpec {
  id: string;
  connector: string;
  settings: Record<string, unknown>;
}

/** Logs of the runs, kept for assertions and quiet test output. */
export class CollectingLogger implements EngineLogger {
  readonly lines: string[] = [];
  log = (m: string) => void this.lines.push(m);
  warn = (m: string) => void this.lines.push(m);
  error = (m: string) => void this.lines.push(m);
  debug = () => undefined;
}

/** The daemon's engine in this process: a SQLite store in a temp folder, the real connectors, the sandbox. */
export class EngineUnderTest {
  readonly logger = new CollectingLogger();
  readonly sync: SyncService;

  private constructor(
    readonly dir: string,
    readonly store: DataSource,
    readonly tracker: TrackerClient,
    /** every HTTP attempt of the engine's client (status or 'network'), to see the faults it got past */
    readonly attempts: TrackerRequestEvent[],
    config: TrackerSyncConfig,
  ) {
    this.sync = createSyncService(store, tracker, builtInRegistry(), config, this.logger);
  }

  static async start(sandbox: InProcessSandbox, project: string, connections: ConnectionSpec[], options: EngineUnderTestOptions = {}): Promise<EngineUnderTest> {
    const dir = mkdtempSync(join(tmpdir(), 'engine-under-test-'));
    const store = await createStoreDataSource({ dataDir: join(dir, 'data') });
    const attempts: TrackerRequestEvent[] = [];
    const tracker = new TrackerClient({
      baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, project, rateLimit: 'off',
      retries: options.retries ?? 8, retryBaseMs: 5, timeoutMs: options.timeoutMs ?? 5_000,
      onRequest: (event) => attempts.push(event),
    });
    const config = new TrackerSyncConfig();
    config.data_dir = join(dir, 'data');
    config.tracker.batch_size = options.batchSize ?? 100;
    config.tracker.rate_limit = 'off';
    config.connections = connections.map((c) => Object.assign(new ConnectionConfig(), { ...c, sync: new SyncOptionsConfig() }));
    return new EngineUnderTest(dir, store, tracker, attempts, config);
  }

  async run(connectionId: string, mode: 'incremental' | 'full' = 'incremental'): Promise<RunSummary> {
    const { done } = await this.sync.start(connectionId, { mode, trigger: 'cli' });
    return done;
  }

  /** The rejected_record rows of a run, as the admin API and the CLI show them. */
  rejected(runId: number): Promise<{ stream: string; external_id: string; field: string; reason: string; ref: string | null; source: string }[]> {
    return this.store.query('SELECT stream, external_id, field, reason, ref, source FROM rejected_record WHERE run_id = ? ORDER BY id', [runId]);
  }

  async stop(): Promise<void> {
    await this.sync.shutdown(2_000);
    await this.tracker.close();
    await this.store.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The built-in connectors the daemon loads from connectors/, registered directly (no plugin loader needed). */
export function builtInRegistry(): ConnectorRegistry {
  const registry = new ConnectorRegistry();
  registry.register(spreadsheetConnector);
  registry.register(genericCrmConnector);
  return registry;
}
