import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { TrackerSyncConfig } from '../../src/config/config.schema';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { ConnectionsService } from '../../src/engine/connection/connections.service';
import { UnknownConnectionError } from '../../src/engine/engine-errors';
import { ENGINE_LOGGER } from '../../src/engine/engine-logger';
import { EngineModule } from '../../src/engine/engine.module';
import { SyncService } from '../../src/engine/sync.service';
import { StoreModule } from '../../src/store/store.module';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { ProjectClients } from '../../src/projects/project-clients';
import { CapturingLogger, connectionConfig, memoryRegistry, testTracker, trackerSyncConfig } from '../support/engine-harness';
import { FakeTrackerService } from '../support/fake-tracker-service';
import { makeDeals, memorySource } from '../support/memory-connector';

describe('engine: Nest wiring and ConnectionsService', () => {
  let dir: string;
  let service: FakeTrackerService;
  let tracker: TrackerClient;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-module-'));
    service = new FakeTrackerService();
    tracker = testTracker(await service.start());
  });
  afterEach(async () => {
    await tracker.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function app(config: TrackerSyncConfig) {
    @Global()
    @Module({
      providers: [
        { provide: TrackerSyncConfig, useValue: config },
        { provide: ProjectClients, useValue: ProjectClients.single(tracker) },
        { provide: ConnectorRegistry, useValue: memoryRegistry() },
        { provide: ENGINE_LOGGER, useValue: new CapturingLogger() },
      ],
      exports: [TrackerSyncConfig, ProjectClients, ConnectorRegistry, ENGINE_LOGGER],
    })
    class DepsModule {}
    @Module({ imports: [DepsModule, StoreModule.forRoot({ dataDir: dir }), EngineModule] })
    class AppModule {}
    return NestFactory.createApplicationContext(AppModule, { logger: false });
  }

  it('EngineModule resolves SyncService and ConnectionsService from the app and runs a sync', async () => {
    const source = memorySource('nest');
    source.deals = makeDeals(5);
    const withSecret = connectionConfig('crm', 'nest');
    withSecret.settings = { source: 'nest', api_key: 'very-secret' };
    withSecret.schedule = '*/5 * * * *';
    const ctx = await app(trackerSyncConfig(dir, [withSecret]));
    const connections = ctx.get(ConnectionsService);
    const sync = ctx.get(SyncService);
    await connections.syncFromConfig();

    const row = await connections.get('crm');
    expect(row).toMatchObject({ connector: 'memory', schedule: '*/5 * * * *', paused: false });
    expect(JSON.stringify(row.settings)).not.toContain('very-secret');

    const { done } = await sync.start('crm', { mode: 'incremental', trigger: 'admin' });
    expect((await done).status).toBe('succeeded');
    expect(service.orders.size).toBe(5);
    expect((await connections.cursors('crm')).map((c) => [c.stream, c.value])).toEqual([
      ['deals', '2025-03-10T09:00:04.000Z'],
    ]);

    await connections.pause('crm');
    await connections.syncFromConfig(); // a restart keeps the admin's pause
    expect((await connections.get('crm')).paused).toBe(true);
    expect((await connections.resume('crm')).paused).toBe(false);
    expect(await connections.clearCursors('crm')).toBe(1);
    expect(await connections.cursors('crm')).toEqual([]);
    await expect(connections.get('nope')).rejects.toBeInstanceOf(UnknownConnectionError);
    expect((await connections.list()).map((c) => c.id)).toEqual(['crm']);
    await ctx.close();
  });
});
