import 'reflect-metadata';
import { OPTIONAL_DEPS_METADATA, PARAMTYPES_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants';
import { TrackerSyncConfig } from '../config/config.schema';
import { ConnectorRegistry } from '../connectors/connector-registry';
import { repositoriesByClass, StoreDataSource, StoreRepositories } from '../store/store-repositories';
import { ProjectClients } from '../projects/project-clients';
import { TrackerClient } from '../tracker/tracker-client';
import { ConnectionLookup } from './connection/connection-lookup';
import { ConnectionPreview } from './connection/connection-preview';
import { ConnectionsService } from './connection/connections.service';
import { ENGINE_LOGGER, EngineLogger } from './engine-logger';
import { ENGINE_OPTIONS, EngineOptions } from './engine-options';
import { EngineSettings } from './engine-settings';
import { OutboundLauncher } from './outbound/outbound-launcher';
import { RejectionRetry } from './run/rejection-retry';
import { RunFailures } from './run/run-failures';
import { RunLauncher } from './run/run-launcher';
import { RunLeases } from './run/run-leases';
import { RunProgress } from './run/run-progress';
import { SyncService } from './sync.service';

/** The engine's parts that EngineModule provides beside SyncService and ConnectionsService. */
export const ENGINE_PARTS = [EngineSettings, ConnectionLookup, ConnectionPreview, RejectionRetry, RunFailures, RunLauncher, RunLeases, RunProgress, OutboundLauncher];

/** Everything EngineModule provides: createEngine builds the same list, the same way. */
export const ENGINE_PROVIDERS = [SyncService, ConnectionsService, ...ENGINE_PARTS];

export interface EngineInputs {
  /** the store: its DataSource, or its repositories (to share them, e.g. with a HeartbeatService) */
  store: StoreDataSource | StoreRepositories;
  /** the projects' clients; one client alone answers for every project */
  tracker: TrackerClient | ProjectClients;
  connectors: ConnectorRegistry;
  config: TrackerSyncConfig;
  logger?: EngineLogger;
  options?: EngineOptions;
}

/**
 * The engine outside Nest (the CLI's tests, benches, child processes): the parts of ENGINE_PROVIDERS built from
 * their constructors' own injection metadata, as Nest builds them for EngineModule, from what the app would
 * provide (the store's repositories, the projects' tracker clients, the connectors, the config, ENGINE_LOGGER and
 * ENGINE_OPTIONS). One wiring: a part's new dependency needs no change here.
 */
export function createEngine(inputs: EngineInputs): { sync: SyncService; connections: ConnectionsService; stores: StoreRepositories } {
  const stores = inputs.store instanceof StoreRepositories ? inputs.store : new StoreRepositories(inputs.store);
  const provided = repositoriesByClass(stores) as Map<unknown, unknown>;
  const clients = inputs.tracker instanceof ProjectClients ? inputs.tracker : ProjectClients.single(inputs.tracker);
  provided.set(ProjectClients, clients);
  provided.set(ConnectorRegistry, inputs.connectors);
  provided.set(TrackerSyncConfig, inputs.config);
  if (inputs.logger) provided.set(ENGINE_LOGGER, inputs.logger);
  if (inputs.options) provided.set(ENGINE_OPTIONS, inputs.options);
  const parts = wire(ENGINE_PROVIDERS, provided);
  return { sync: parts.get(SyncService) as SyncService, connections: parts.get(ConnectionsService) as ConnectionsService, stores };
}

/** A SyncService outside Nest (the arguments of its former constructor). */
export function createSyncService(
  store: StoreDataSource | StoreRepositories,
  tracker: TrackerClient | ProjectClients,
  connectors: ConnectorRegistry,
  config: TrackerSyncConfig,
  logger?: EngineLogger,
  options?: EngineOptions,
): SyncService {
  return createEngine({ store, tracker, connectors, config, logger, options }).sync;
}

type Constructor = new (...args: unknown[]) => unknown;

/**
 * Builds each class once, its constructor's arguments by the metadata Nest reads (`design:paramtypes`, and
 * the tokens and optional flags of `@Inject()` / `@Optional()`), from `provided` or the other classes.
 */
function wire(classes: Function[], provided: Map<unknown, unknown>): Map<unknown, unknown> {
  const built = new Map(provided);
  const building = new Set<unknown>();
  const build = (token: unknown): unknown => {
    if (built.has(token)) return built.get(token);
    if (!classes.includes(token as Function)) throw new Error(`createEngine: nothing provides ${tokenName(token)}`);
    if (building.has(token)) throw new Error(`createEngine: ${tokenName(token)} depends on itself`);
    building.add(token);
    const type = token as Constructor;
    const paramTypes: unknown[] = Reflect.getMetadata(PARAMTYPES_METADATA, type) ?? [];
    const declared: { index: number; param: unknown }[] = Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, type) ?? [];
    const optional: number[] = Reflect.getMetadata(OPTIONAL_DEPS_METADATA, type) ?? [];
    const args = paramTypes.map((paramType, index) => {
      const dependency = declared.find((d) => d.index === index)?.param ?? paramType;
      if (optional.includes(index) && !built.has(dependency) && !classes.includes(dependency as Function)) return undefined;
      return build(dependency);
    });
    const instance = new type(...args);
    built.set(token, instance);
    return instance;
  };
  for (const type of classes) build(type);
  return built;
}

function tokenName(token: unknown): string {
  return typeof token === 'function' ? token.name : String(token);
}
