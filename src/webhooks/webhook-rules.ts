import { durationMs } from '../config/alert-config';
import type { ConnectionConfig } from '../config/config.schema';
import type { WebhookVerifyConfig } from '../config/webhook-config';
import type { ConnectorRegistry } from '../connectors/connector-registry';
import type { WebhookVerification } from '../connectors/webhook-capability';

/**
 * How a connection's webhook calls are verified: its own `webhook.verify` when written, else what its
 * connector (a preset) says of its CRM; null when neither says (every call is then refused, and the
 * start-up warns).
 */
export function verificationOf(connection: ConnectionConfig, registry: ConnectorRegistry): WebhookVerification | null {
  if (connection.webhook?.verify) return fromConfig(connection.webhook.verify);
  const capability = registry.get(connection.connector)?.webhooks;
  let rule: WebhookVerification | null;
  try {
    rule = capability?.verification(connection.settings) ?? null;
  } catch {
    return null;
  }
  // a CRM that signs by versions: the ones the connection opted in to (webhook.signature_versions), else its defaults
  if (rule?.type === 'versions' && connection.webhook?.signature_versions) return { ...rule, accepted: connection.webhook.signature_versions };
  return rule;
}

export function fromConfig(verify: WebhookVerifyConfig): WebhookVerification {
  switch (verify.type) {
    case 'hmac':
      return {
        type: 'hmac',
        header: verify.header!,
        algorithm: verify.algorithm,
        encoding: verify.encoding,
        signed: verify.signed,
        prefix: verify.prefix,
        timestampHeader: verify.timestamp_header,
        maxAgeMs: durationMs(verify.max_age),
      };
    case 'header_secret':
      return { type: 'header_secret', header: verify.header! };
    case 'basic':
      return { type: 'basic' };
    case 'path_secret':
      return { type: 'path_secret' };
  }
}

/** The connection's debounce in ms (default 3 s). */
export function debounceMs(connection: ConnectionConfig): number {
  return durationMs(connection.webhook?.debounce ?? '3s');
}
