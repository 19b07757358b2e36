import { Injectable } from '@nestjs/common';
import { join } from 'path';
import { warmReadThread, workerThreads } from '../offload/offload-pool';
import { ConnectionConfig, syncOptionsOf, trackerOptionsOf, TrackerSyncConfig } from '../../config/config.schema';
import type { ConnectorDefinition, ConnectorSecrets } from '../../connectors/connector-definition';
import { ConnectorRegistry } from '../../connectors/connector-registry';
import { hasNamedProjects, projectNameOf } from '../../config/project-targets';
import { ProjectClients } from '../../projects/project-clients';
import { ConnectorSecretStore } from '../../store/repositories/connector-secret.store';
import type { TrackerClient } from '../../tracker/tracker-client';
import { UnknownConnectionError } from '../engine-errors';
import { EngineSettings } from '../engine-settings';

/** A connection's config, its connector with typed settings, its project's tracker client, and its work folder. */
@Injectable()
export class ConnectionLookup {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly connectors: ConnectorRegistry,
    private readonly settings: EngineSettings,
    private readonly secretStore: ConnectorSecretStore,
    private readonly clients: ProjectClients,
  ) {}

  /** The tracker client of the project the connection feeds: everything a run of it asks of the service goes there. */
  tracker(connection: ConnectionConfig): TrackerClient {
    return this.clients.forConnection(connection);
  }

  /** The project its run lines name, where the config names projects (an installation of `tracker:` alone names none). */
  projectLabel(connection: ConnectionConfig): string | undefined {
    return hasNamedProjects(this.config) ? projectNameOf(connection) : undefined;
  }

  /** Throws UnknownConnectionError for an id the config does not hold. */
  connection(connectionId: string): ConnectionConfig {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    return connection;
  }

  connector(connection: ConnectionConfig): { definition: ConnectorDefinition; settings: object } {
    const definition = this.connectors.get(connection.connector);
    if (!definition) throw new Error(`connection ${connection.id}: connector ${JSON.stringify(connection.connector)} is not available`);
    const settings = this.connectors.instantiateSettings(connection.connector, connection.settings ?? {});
    return { definition, settings };
  }

  /** ReadContext.workDir: EngineOptions.workDir or <data_dir>/connectors, per connection. */
  workDir(connectionId: string): string {
    return join(this.settings.workDir ?? join(this.config.data_dir, 'connectors'), connectionId);
  }

  /** ReadContext.secrets: the connector's rotating secrets (OAuth2 tokens), in the store shared by the cluster. */
  secrets(connectionId: string): ConnectorSecrets {
    return this.secretStore.forConnector(this.connection(connectionId).connector);
  }

  /**
   * Starts a read thread for the connectors of the configured connections that read on one, so that it boots
   * (a new thread loading the connector, ~0.5 s) while the rest of the app does, not when a run's first stream
   * asks for it. An idle thread ends after a few seconds.
   */
  warmReadThreads(): void {
    const threads = workerThreads(trackerOptionsOf(this.config).workers);
    if (!threads) return;
    const modules = new Set(this.config.connections.map((c) => this.connectors.get(c.connector)?.workerModule));
    for (const module of modules) if (module) warmReadThread(threads, module);
  }

  /** Records per add-orders call, calls in flight at once, and worker threads for reads (tracker.workers). */
  sizing(connection: ConnectionConfig): { batchSize: number; concurrency: number; workers: number } {
    return {
      batchSize: syncOptionsOf(connection).batch_size ?? trackerOptionsOf(this.config).batch_size,
      concurrency: trackerOptionsOf(this.config).concurrency,
      workers: workerThreads(trackerOptionsOf(this.config).workers),
    };
  }
}
