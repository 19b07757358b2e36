import 'reflect-metadata';
import { DynamicModule, Global, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminModule, setupOpenApi } from '../../src/admin';
import { AppConfigModule, TrackerSyncConfig, validateConfig } from '../../src/config';
import type { ConnectorDefinition } from '../../src/connectors/connector-definition';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { EngineModule } from '../../src/engine/engine.module';
import { ObservabilityModule } from '../../src/observability/observability.module';
import { createSandboxApp } from '../../src/sandbox/sandbox-app';
import { SchedulerModule } from '../../src/scheduler';
import { StoreModule } from '../../src/store';
import { ProjectClients } from '../../src/projects/project-clients';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { testConnector } from './fixtures/test-connector';

export const SANDBOX_KEY = 'sandbox-secret-key-42';

export interface TestAppOptions {
  connections: Record<string, unknown>[];
  /** config admin.token; absent = generated under data_dir */
  adminToken?: string;
  /** reuse a data folder (a "second start") */
  dataDir?: string;
  /** connectors besides test-source (e.g. the built-in spreadsheet connector) */
  connectors?: ConnectorDefinition[];
  /** the config's `alerts` */
  alerts?: Record<string, unknown>[];
  /** the config's `scheduler` */
  scheduler?: Record<string, unknown>;
}

/** A loopback sandbox standing in for the service; one per test file. */
export async function startSandbox(): Promise<{ app: INestApplication; url: string }> {
  const app = await createSandboxApp({ db: ':memory:', seed: 'none', apiKey: SANDBOX_KEY, budget: 'off' }, { prefix: 'api/v1' });
  await app.listen(0, '127.0.0.1');
  return { app, url: `${await app.getUrl()}/api/v1` };
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'tracker-sync-admin-'));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The validated config, exactly as the daemon would load it from YAML. */
export function testConfig(sandboxUrl: string, dataDir: string, options: TestAppOptions, registry: ConnectorRegistry): TrackerSyncConfig {
  return validateConfig(
    {
      data_dir: dataDir,
      admin: options.adminToken ? { token: options.adminToken } : {},
      tracker: { base_url: sandboxUrl, api_key: SANDBOX_KEY, project: '1', rate_limit: 'off', retries: 1, timeout_ms: 5000 },
      connections: options.connections,
      alerts: options.alerts ?? [],
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    },
    { env: {}, settingsValidator: registry.validateSettings },
  );
}

@Global()
@Module({})
class TestSharedModule {
  static forRoot(registry: ConnectorRegistry, config: TrackerSyncConfig): DynamicModule {
    const t = config.tracker;
    const client = new TrackerClient({ baseUrl: t.base_url!, apiKey: t.api_key!, project: t.project, rateLimit: 'off', retries: t.retries, timeoutMs: t.timeout_ms, retryBaseMs: 10 });
    return {
      module: TestSharedModule,
      providers: [
        { provide: ConnectorRegistry, useValue: registry },
        { provide: TrackerClient, useValue: client },
        { provide: ProjectClients, useValue: ProjectClients.single(client) },
      ],
      exports: [ConnectorRegistry, TrackerClient, ProjectClients],
    };
  }
}

/** The daemon's modules (store on a temp SQLite file, real engine and scheduler) with the admin API on 127.0.0.1:0. */
export async function startAdminApp(sandboxUrl: string, options: TestAppOptions): Promise<{ app: INestApplication; url: string; config: TrackerSyncConfig }> {
  const registry = new ConnectorRegistry();
  registry.register(testConnector);
  for (const connector of options.connectors ?? []) registry.register(connector);
  const config = testConfig(sandboxUrl, options.dataDir ?? tempDataDir(), options, registry);

  @Module({
    imports: [
      AppConfigModule.forRoot(config),
      StoreModule.forRoot({ dataDir: config.data_dir }),
      TestSharedModule.forRoot(registry, config),
      ObservabilityModule,
      EngineModule,
      SchedulerModule,
      AdminModule,
    ],
  })
  class AdminTestRootModule {}

  const app = await NestFactory.create(AdminTestRootModule, { logger: false, abortOnError: false });
  setupOpenApi(app);
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl(), config };
}

/** Waits until `probe` returns a value (polling), or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
