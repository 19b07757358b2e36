import { Injectable, Logger } from '@nestjs/common';
import { join } from 'node:path';
import { ConnectionConfig, TrackerSyncConfig } from '../../config';
import { ProjectStatusesCheck } from './project-statuses-check';
import { ConnectorRegistry } from '../../connectors/connector-registry';
import { ConnectorSecretStore } from '../../store/repositories/connector-secret.store';
import { UnknownConnectionError } from '../../engine';
import { CheckResponse } from '../dto/connection.response';
import { SecretScrubber } from '../secrets/secret-scrubber.service';

const CHECK_TIMEOUT_MS = 30_000;

/** Runs a connector's own check (reach the source, verify credentials) for the admin API and the CLI. */
@Injectable()
export class ConnectionCheckService {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly registry: ConnectorRegistry,
    private readonly scrubber: SecretScrubber,
    private readonly secrets: ConnectorSecretStore,
    private readonly statuses: ProjectStatusesCheck,
  ) {}

  async check(connectionId: string): Promise<CheckResponse> {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    const result = await this.runCheck(connectionId, connection.connector, connection.settings);
    const response: CheckResponse = { connection_id: connectionId, ok: result.ok, message: this.scrubber.text(result.message) };
    const review = await this.reviewStatuses(connection);
    if (review.statuses) response.project_statuses = review.statuses;
    if (review.warnings.length) response.warnings = review.warnings.map((warning) => this.scrubber.text(warning));
    return response;
  }

  /** The project's status dictionary against status_map / statuses: register (warnings only). */
  private async reviewStatuses(connection: ConnectionConfig) {
    let settings: object;
    try {
      settings = this.registry.instantiateSettings(connection.connector, connection.settings);
    } catch {
      return { warnings: [] }; // the connector's own check has already said what is wrong with the settings
    }
    return this.statuses.review(connection, this.registry.get(connection.connector), {
      connectionId: connection.id,
      settings,
      logger: { log: () => {}, warn: () => {} },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      workDir: join(this.config.data_dir, 'connectors', connection.id),
      secrets: this.secrets.forConnector(connection.connector),
    });
  }

  private async runCheck(connectionId: string, connector: string, raw: unknown): Promise<{ ok: boolean; message: string }> {
    const definition = this.registry.get(connector);
    if (!definition) return { ok: false, message: `connector "${connector}" is not loaded` };
    const logger = new Logger(`check ${connectionId}`);
    try {
      const settings = this.registry.instantiateSettings(connector, raw);
      return await definition.check(settings, {
        connectionId,
        settings,
        logger: { log: (m) => logger.log(this.scrubber.text(m)), warn: (m) => logger.warn(this.scrubber.text(m)) },
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        workDir: join(this.config.data_dir, 'connectors', connectionId),
        secrets: this.secrets.forConnector(connector),
      });
    } catch (error) {
      return { ok: false, message: `connection ${connectionId}: check failed: ${(error as Error)?.message ?? String(error)}` };
    }
  }
}
