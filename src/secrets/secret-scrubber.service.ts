import { Injectable } from '@nestjs/common';
import { TrackerSyncConfig } from '../config';
import { redactSecrets } from '../config/redact';
import { collectSecretValues, scrubKnownSecrets, scrubText } from './secret-values';

/**
 * Keeps secrets out of every admin answer and CLI line: values under secret-looking keys are masked
 * (redactSecrets), and each secret the configuration holds (connection settings, the service's
 * Api-key, the admin token) is cut out of any text, e.g. a connector's error that echoes its request.
 */
@Injectable()
export class SecretScrubber {
  private secrets: string[] = [];

  constructor(config: TrackerSyncConfig) {
    this.learn(config);
  }

  /**
   * Adds the secrets of a config (a reloaded one): those of the config before stay known, since a run going
   * under the old settings may still echo them.
   */
  learn(config: TrackerSyncConfig): void {
    const found = new Set<string>(this.secrets);
    for (const connection of config.connections ?? []) collectSecretValues({ ...connection.settings, webhook_secret: connection.webhook?.secret }, found);
    collectSecretValues({ api_key: config.tracker?.api_key, sandbox_api_key: config.sandbox?.api_key }, found);
    for (const project of Object.values(config.projects ?? {})) collectSecretValues({ api_key: project?.api_key }, found);
    collectSecretValues({ token: config.admin?.token, env_token: process.env.ADMIN_TOKEN }, found);
    // alert channels: bot tokens, SMTP passwords, and webhook URLs whole (Slack's carries its token in the path)
    for (const alert of config.alerts ?? []) collectSecretValues({ bot_token: alert.bot_token, webhook_url: alert.type === 'email' ? undefined : alert.url, url: alert.url }, found);
    this.secrets = [...found];
  }

  scrub<T>(value: T): T {
    return scrubKnownSecrets(redactSecrets(value), this.secrets);
  }

  text(message: string): string {
    return scrubText(message, this.secrets);
  }
}
