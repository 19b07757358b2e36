import { Module } from '@nestjs/common';
import { ConnectionsService } from './connections.service';
import { SyncService } from './sync.service';

/**
 * The sync engine for Nest. Expects in the app: TrackerSyncConfig (src/config), TrackerClient
 * (src/tracker/tracker.module), ConnectorRegistry (src/connectors) and TypeORM's DataSource (StoreModule).
 * Optional: ENGINE_LOGGER ({ log, warn, error }) and ENGINE_OPTIONS (lease and progress timings).
 */
@Module({
  providers: [SyncService, ConnectionsService],
  exports: [SyncService, ConnectionsService],
})
export class EngineModule {}
