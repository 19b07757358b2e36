import { Injectable, Logger } from '@nestjs/common';
import { join } from 'node:path';
import { ConnectionConfig, TrackerSyncConfig } from '../config/config.schema';
import { ConnectorRegistry } from '../connectors/connector-registry';
import type { WebhookContext, WebhookRegistration, WebhookTarget } from '../connectors/webhook-capability';
import { UnknownConnectionError } from '../engine';
import { ConnectorSecretStore } from '../store/repositories/connector-secret.store';
import { verificationOf } from './webhook-rules';
import { maskSecretForms, secretForms } from '../http/secret-forms';

const REGISTRATION_TIMEOUT_MS = 60_000;
const REDACTED = '***';

/** What `webhooks register|list|unregister` answer (the secret never in it). */
export type RegistrationAnswer =
  | { connection: string; action: 'registered'; url: string; registration: WebhookRegistration; replaced: number }
  | { connection: string; action: 'listed'; url: string; registrations: WebhookRegistration[] | null; steps?: string[] }
  | { connection: string; action: 'unregistered'; url: string; removed: number }
  | { connection: string; action: 'manual'; url: string; steps: string[] };

/** A connection without webhook settings, or no address to register: a clear message for the CLI. */
export class WebhookSetupError extends Error {}

/**
 * Registration of a connection's webhook with its CRM (the connector's webhook capability): the URL is
 * `<base>/hooks/<connection>`, plus `/<secret>` where the CRM carries the secret only in the URL.
 */
@Injectable()
export class WebhookRegistrationService {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: ConnectorSecretStore,
  ) {}

  async register(connectionId: string, baseUrl?: string): Promise<RegistrationAnswer> {
    const { connection, target, capability, settings, context } = this.prepare(connectionId, baseUrl);
    const url = this.shown(target.url, connection);
    if (!capability) return { connection: connectionId, action: 'manual', url, steps: this.genericSteps(target, connection) };
    const result = await capability.register(settings, context, target);
    if (result.status === 'manual') return { connection: connectionId, action: 'manual', url, steps: result.steps.map((s) => this.shown(s, connection)) };
    return { connection: connectionId, action: 'registered', url, registration: this.shownRegistration(result.registration, connection), replaced: result.replaced };
  }

  async list(connectionId: string, baseUrl?: string): Promise<RegistrationAnswer> {
    const { connection, target, capability, settings, context } = this.prepare(connectionId, baseUrl, true);
    const url = this.shown(target.url, connection);
    const registrations = capability ? await capability.list(settings, context, target) : null;
    return {
      connection: connectionId, action: 'listed', url,
      registrations: registrations?.map((r) => this.shownRegistration(r, connection)) ?? null,
      ...(registrations ? {} : { steps: ["The CRM's API cannot list this connection's webhooks: see them in the CRM's settings."] }),
    };
  }

  async unregister(connectionId: string, baseUrl?: string): Promise<RegistrationAnswer> {
    const { connection, target, capability, settings, context } = this.prepare(connectionId, baseUrl, true);
    const url = this.shown(target.url, connection);
    if (!capability) return { connection: connectionId, action: 'manual', url, steps: [`Remove the webhook ${url} in the CRM's settings.`] };
    const result = await capability.unregister(settings, context, target);
    if ('removed' in result) return { connection: connectionId, action: 'unregistered', url, removed: result.removed };
    return { connection: connectionId, action: 'manual', url, steps: result.steps.map((s) => this.shown(s, connection)) };
  }

  private prepare(connectionId: string, baseUrl: string | undefined, anyBase = false) {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    if (!connection.webhook) throw new WebhookSetupError(`connection ${connectionId} has no webhook settings (webhook: { secret: ... } in the config)`);
    const base = (baseUrl ?? this.config.server.public_url)?.replace(/\/+$/, '');
    if (!base && !anyBase) throw new WebhookSetupError(`connection ${connectionId}: say where the CRM reaches this daemon: --url https://your-host (or server.public_url)`);
    const hookPath = `/hooks/${encodeURIComponent(connectionId)}`;
    const withSecret = verificationOf(connection, this.registry)?.type === 'path_secret';
    const hookUrl = `${base ?? ''}${hookPath}`;
    const target: WebhookTarget = {
      url: withSecret ? `${hookUrl}/${encodeURIComponent(connection.webhook.secret)}` : hookUrl,
      hookPath,
      secret: connection.webhook.secret,
      connectionId,
    };
    const settings = this.registry.instantiateSettings(connection.connector, connection.settings);
    const logger = new Logger(`webhooks ${connectionId}`);
    const context: WebhookContext<unknown> = {
      connectionId,
      settings,
      logger: { log: (m) => logger.log(this.shown(m, connection)), warn: (m) => logger.warn(this.shown(m, connection)) },
      signal: AbortSignal.timeout(REGISTRATION_TIMEOUT_MS),
      workDir: join(this.config.data_dir, 'connectors', connectionId),
      secrets: this.secrets.forConnector(connection.connector),
    };
    return { connection, target, capability: this.registry.get(connection.connector)?.webhooks, settings, context };
  }

  private genericSteps(target: WebhookTarget, connection: ConnectionConfig): string[] {
    return [
      `The connector ${connection.connector} cannot register webhooks with its CRM.`,
      `In the CRM, call ${this.shown(target.url, connection)} (POST) when a deal is added or changed, signed as webhook.verify says.`,
    ];
  }

  private shownRegistration(registration: WebhookRegistration, connection: ConnectionConfig): WebhookRegistration {
    return { ...registration, url: this.shown(registration.url, connection) };
  }

  /** Text without the connection's webhook secret (it may sit in a URL, raw or encoded, or in a CRM's JSON answer). */
  private shown(text: string, connection: ConnectionConfig): string {
    const secret = connection.webhook?.secret;
    if (!secret) return text;
    return maskSecretForms(text, secretForms([secret]), REDACTED);
  }
}
