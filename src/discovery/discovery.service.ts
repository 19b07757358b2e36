import { Injectable, Logger } from '@nestjs/common';
import { join } from 'node:path';
import { SecretScrubber } from '../secrets/secret-scrubber.service';
import { ConnectionConfig, TrackerSyncConfig } from '../config';
import type { ReadContext, SourceCatalog, StageMapping } from '../connectors/connector-definition';
import { ConnectorRegistry } from '../connectors/connector-registry';
import { UnknownConnectionError } from '../engine';
import { ConnectorSecretStore } from '../store/repositories/connector-secret.store';
import { ProjectClients } from '../projects/project-clients';
import { ProjectStatuses, projectStatuses } from './project-statuses';
import { propose, Proposal } from './proposal';

const DISCOVER_TIMEOUT_MS = 60_000;
/** the status page asks every few seconds: the CRM is asked at most this often per connection */
const CATALOG_TTL_MS = 10 * 60_000;

/** `cli discover --json` and GET /api/connections/{id}/discover. */
export interface DiscoverResult extends SourceCatalog {
  connection_id: string;
  connector: string;
  preset: string | null;
  project_statuses: ProjectStatuses;
  proposed: Proposal;
}

/** Discovery impossible: the connector lists no stages (`unsupported`), or the CRM failed to answer (`source`). */
export class DiscoveryError extends Error {
  constructor(
    message: string,
    readonly kind: 'unsupported' | 'source',
  ) {
    super(message);
  }
}

/** Reads a connection's CRM catalog and proposes its mapping; the stage mapping the status page shows. */
@Injectable()
export class DiscoveryService {
  private readonly cache = new Map<string, { at: number; catalog: Promise<SourceCatalog> }>();

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly registry: ConnectorRegistry,
    private readonly clients: ProjectClients,
    private readonly scrubber: SecretScrubber,
    private readonly secrets: ConnectorSecretStore,
  ) {}

  async discover(connectionId: string): Promise<DiscoverResult> {
    const { connection, settings } = this.connection(connectionId);
    const catalog = await this.readCatalog(connectionId, true);
    const statuses = projectStatuses(await this.listedStatuses(connection));
    return this.scrubber.scrub({
      connection_id: connectionId,
      connector: connection.connector,
      preset: typeof settings.preset === 'string' ? settings.preset : null,
      ...catalog,
      project_statuses: statuses,
      proposed: propose(catalog, statuses),
    });
  }

  /** null for a connector that lists no stages (a spreadsheet). */
  async stageMapping(connectionId: string): Promise<StageMapping | null> {
    const { connection } = this.connection(connectionId);
    const definition = this.registry.get(connection.connector);
    if (!definition?.catalog || !definition.stageMapping) return null;
    const catalog = await this.readCatalog(connectionId, false);
    const settings = this.registry.instantiateSettings<object>(connection.connector, connection.settings);
    const mapping = definition.stageMapping(settings, catalog, this.context(connectionId, settings));
    if (connection.statuses !== 'register') return { ...mapping, statuses: 'map' };
    // registered before the deals: every stage is a status of the project under its own id, none is uncovered
    return { ...mapping, statuses: 'register', stages: mapping.stages.map((stage) => ({ ...stage, status: stage.id })) };
  }

  private connection(connectionId: string) {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    return { connection, settings: connection.settings as Record<string, unknown> };
  }

  private readCatalog(connectionId: string, fresh: boolean): Promise<SourceCatalog> {
    const cached = this.cache.get(connectionId);
    if (!fresh && cached && Date.now() - cached.at < CATALOG_TTL_MS) return cached.catalog;
    const catalog = this.fetchCatalog(connectionId);
    this.cache.set(connectionId, { at: Date.now(), catalog });
    catalog.catch(() => this.cache.delete(connectionId));
    return catalog;
  }

  private async fetchCatalog(connectionId: string): Promise<SourceCatalog> {
    const { connection } = this.connection(connectionId);
    const definition = this.registry.get(connection.connector);
    if (!definition) throw new DiscoveryError(`connection ${connectionId}: connector "${connection.connector}" is not loaded`, 'unsupported');
    if (!definition.catalog) {
      throw new DiscoveryError(`connection ${connectionId}: connector ${connection.connector} cannot list the source's stages and fields`, 'unsupported');
    }
    const settings = this.registry.instantiateSettings<object>(connection.connector, connection.settings);
    try {
      return await definition.catalog(settings, this.context(connectionId, settings));
    } catch (error) {
      const message = this.scrubber.text(error instanceof Error ? error.message : String(error));
      throw new DiscoveryError(message.startsWith(`connection ${connectionId}`) ? message : `connection ${connectionId}: ${message}`, 'source');
    }
  }

  private context(connectionId: string, settings: object): Omit<ReadContext<object>, 'state'> {
    const logger = new Logger(`discover ${connectionId}`);
    const connector = this.config.connections.find((c) => c.id === connectionId)!.connector;
    return {
      connectionId,
      settings,
      logger: { log: (m) => logger.log(this.scrubber.text(m)), warn: (m) => logger.warn(this.scrubber.text(m)) },
      signal: AbortSignal.timeout(DISCOVER_TIMEOUT_MS),
      workDir: join(this.config.data_dir, 'connectors', connectionId),
      secrets: this.secrets.forConnector(connector),
    };
  }

  /** The status list of the connection's project; null when the service offers none (the defaults are then proposed). */
  private async listedStatuses(connection: ConnectionConfig) {
    try {
      return await this.clients.forConnection(connection).orders.listStatuses();
    } catch {
      return null;
    }
  }
}
