import { Injectable, Logger } from '@nestjs/common';
import { join } from 'node:path';
import { ConnectionConfig, TrackerSyncConfig } from '../../config';
import type { CheckResult } from '../../connectors/connector-definition';
import { ProjectStatusesCheck } from './project-statuses-check';
import { uncoveredStagesWarnings } from './uncovered-stages';
import { ConnectorRegistry } from '../../connectors/connector-registry';
import { ConnectorSecretStore } from '../../store/repositories/connector-secret.store';
import { checkConnection, UnknownConnectionError } from '../../engine';
import { DEFAULT_PROJECT, projectNameOf, projectTarget } from '../../config/project-targets';
import { ProjectClients } from '../../projects/project-clients';
import { CheckEntryResponse, CheckResponse } from '../answers/connection.response';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';

const CHECK_TIMEOUT_MS = 30_000;

type CheckEntry = Omit<CheckEntryResponse, 'name'>;

/**
 * A connection's check for the admin API and the CLI: both ends of the sync, each one entry. The service: one
 * project-scoped request with the Api-key and project (a key or project it refuses fails here, not in the first
 * run). The source: the connector's own check (reach the CRM or file, verify its token).
 */
@Injectable()
export class ConnectionCheckService {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly registry: ConnectorRegistry,
    private readonly scrubber: SecretScrubber,
    private readonly secrets: ConnectorSecretStore,
    private readonly clients: ProjectClients,
    private readonly statuses: ProjectStatusesCheck,
  ) {}

  async check(connectionId: string): Promise<CheckResponse> {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    const [service, source] = await Promise.all([
      this.checkService(connection),
      this.checkSource(connectionId, connection.connector, connection.settings),
    ]);
    const checks: CheckEntryResponse[] = [
      { name: 'service', ok: service.ok, message: this.scrubber.text(service.message) },
      { name: 'source', ok: source.ok, message: this.scrubber.text(source.message) },
    ];
    const response: CheckResponse = {
      connection_id: connectionId,
      ok: checks.every((c) => c.ok),
      message: checks.map((c) => `${c.name}: ${c.ok ? 'ok' : 'failed'}: ${c.message}`).join('; '),
      checks,
    };
    // a service that refused the key has said so once; its statuses cannot be listed either
    const review = service.ok ? await this.reviewStatuses(connection) : { warnings: [] as string[], statuses: undefined };
    if (review.statuses) response.project_statuses = review.statuses;
    // stages no status_map key covers (with `statuses: register` every stage is sent as itself and registered, so
    // none is left uncovered), the source's own warnings (a missing visit field), then the project's statuses
    const uncovered = connection.statuses === 'register' ? [] : uncoveredStagesWarnings(source.uncovered_stages);
    const warnings = [...uncovered, ...(source.warnings ?? []), ...review.warnings].map((warning) => this.scrubber.text(warning));
    if (warnings.length) response.warnings = warnings;
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

  /** The service of the connection's project, with that project's key and number. */
  private async checkService(connection: ConnectionConfig): Promise<CheckEntry> {
    const name = projectNameOf(connection);
    const project = projectTarget(this.config, name);
    const baseUrl = project?.baseUrl;
    const target = baseUrl ? `the service at ${baseUrl}` : 'the embedded sandbox';
    // on the embedded sandbox the tracker: project is the sandbox's own, project 1 (src/bootstrap.ts)
    const number = !baseUrl && name === DEFAULT_PROJECT ? '1' : project?.project;
    try {
      await withTimeout(this.clients.client(name).projects.trackingCodes(), CHECK_TIMEOUT_MS, `${target} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`);
      return { ok: true, message: `${target} accepts the Api-key for project ${number}${name === DEFAULT_PROJECT ? '' : ` (${name})`}` };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  }

  private async checkSource(connectionId: string, connector: string, raw: unknown): Promise<CheckResult> {
    const definition = this.registry.get(connector);
    if (!definition) return { ok: false, message: `connector "${connector}" is not loaded` };
    const logger = new Logger(`check ${connectionId}`);
    try {
      const settings = this.registry.instantiateSettings(connector, raw);
      const context = {
        connectionId,
        settings,
        logger: { log: (m: string) => logger.log(this.scrubber.text(m)), warn: (m: string) => logger.warn(this.scrubber.text(m)) },
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        workDir: join(this.config.data_dir, 'connectors', connectionId),
        secrets: this.secrets.forConnector(connector),
      };
      // the connector's check, then its outbound flows' (write-back's fields, lead delivery's targets)
      return await checkConnection(definition, settings, context);
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  }
}

function errorMessage(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

/** The client retries a service that does not answer; a check says so within its time instead. */
async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
