import { Module } from '@nestjs/common';
import { ConnectionsService } from './connection/connections.service';
import { ENGINE_PROVIDERS } from './engine-parts';
import { SyncService } from './sync.service';

/**
 * The sync engine for Nest. Expects in the app: TrackerSyncConfig (src/config), ProjectClients
 * (src/projects: each project's tracker client, provided by the app module), ConnectorRegistry (src/connectors) and the store's repositories (StoreModule).
 * Optional: ENGINE_LOGGER ({ log, warn, error }) and ENGINE_OPTIONS (lease and progress timings).
 * Outside Nest, createEngine (engine-parts.ts) wires the same parts.
 */
@Module({
  providers: ENGINE_PROVIDERS,
  exports: [SyncService, ConnectionsService],
})
export class EngineModule {}
