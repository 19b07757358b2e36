import { TrackerSyncConfig } from '../config/config.schema';
import { ConnectorRegistry } from '../connectors/connector-registry';
import { StoreDataSource, StoreRepositories } from '../store/store-repositories';
import { TrackerClient } from '../tracker/tracker-client';
import { ConnectionLookup } from './connection-lookup';
import { ConnectionPreview } from './connection-preview';
import { ConnectionsService } from './connections.service';
import { EngineLogger } from './engine-logger';
import { EngineOptions } from './engine-options';
import { EngineSettings } from './engine-settings';
import { RejectionRetry } from './rejection-retry';
import { RunFailures } from './run-failures';
import { RunLauncher } from './run-launcher';
import { RunLeases } from './run-leases';
import { RunProgress } from './run-progress';
import { SyncService } from './sync.service';
import { OutboundLauncher } from './outbound/outbound-launcher';

/** The engine's parts that EngineModule provides beside SyncService and ConnectionsService. */
export const ENGINE_PARTS = [EngineSettings, ConnectionLookup, ConnectionPreview, RejectionRetry, RunFailures, RunLauncher, RunLeases, RunProgress, OutboundLauncher];

export interface EngineInputs {
  /** the store: its DataSource, or its repositories (to share them, e.g. with a HeartbeatService) */
  store: StoreDataSource | StoreRepositories;
  tracker: TrackerClient;
  connectors: ConnectorRegistry;
  config: TrackerSyncConfig;
  logger?: EngineLogger;
  options?: EngineOptions;
}

/**
 * The engine wired by hand, as EngineModule wires it for Nest: for code outside Nest (tests, benches).
 */
export function createEngine(inputs: EngineInputs): { sync: SyncService; connections: ConnectionsService; stores: StoreRepositories } {
  const stores = inputs.store instanceof StoreRepositories ? inputs.store : new StoreRepositories(inputs.store);
  const settings = new EngineSettings(inputs.options, inputs.logger);
  const lookup = new ConnectionLookup(inputs.config, inputs.connectors, settings, stores.connectorSecrets);
  const progress = new RunProgress(settings);
  const launcher = new RunLauncher(
    stores.writer, stores.recordStates, stores.openRejections, stores.cursors, stores.runs, stores.rejected,
    inputs.tracker, lookup, progress, settings,
  );
  const sync = new SyncService(
    lookup,
    new RunLeases(stores.leases, settings),
    new RunFailures(stores.runs),
    launcher,
    progress,
    new RejectionRetry(stores.runs, stores.rejected),
    new ConnectionPreview(lookup, stores.recordStates, settings),
    stores.runs,
    settings,
    new OutboundLauncher(lookup, inputs.tracker, stores.outbound, progress),
  );
  return { sync, connections: new ConnectionsService(stores.connections, stores.cursors, inputs.config), stores };
}

/** A SyncService outside Nest (the arguments of its former constructor). */
export function createSyncService(
  store: StoreDataSource | StoreRepositories,
  tracker: TrackerClient,
  connectors: ConnectorRegistry,
  config: TrackerSyncConfig,
  logger?: EngineLogger,
  options?: EngineOptions,
): SyncService {
  return createEngine({ store, tracker, connectors, config, logger, options }).sync;
}
