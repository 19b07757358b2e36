import { Injectable, Logger } from '@nestjs/common';
import { join } from 'node:path';
import { TrackerSyncConfig } from '../../config';
import { ConnectorRegistry } from '../../connectors/connector-registry';
import { ConnectorSecretStore } from '../../store/repositories/connector-secret.store';
import { UnknownConnectionError } from '../../engine';
import { CheckResponse } from '../answers/connection.response';
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
  ) {}

  async check(connectionId: string): Promise<CheckResponse> {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    const result = await this.runCheck(connectionId, connection.connector, connection.settings);
    return { connection_id: connectionId, ok: result.ok, message: this.scrubber.text(result.message) };
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
