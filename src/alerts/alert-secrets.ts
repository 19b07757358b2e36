import type { TrackerSyncConfig } from '../config/config.schema';
import { collectSecretValues, projectSecrets, scrubText } from '../secrets/secret-values';

/**
 * Every secret the configuration holds (connection settings, the service's key and each project's, the admin token, the alerts' own
 * URLs and bot tokens), and a function that cuts them out of a text. Alert texts carry run errors, which may echo
 * a connector's request; the alert channels' URLs carry tokens (Slack hooks, Telegram bots).
 */
export function alertScrubber(config: TrackerSyncConfig): (text: string) => string {
  // read at each use: a config reload puts new connections (their secrets) in `config.connections`; the
  // secrets seen before stay known, since a run started under the old settings may still echo them
  const found = new Set<string>();
  return (text) => {
    for (const connection of config.connections ?? []) collectSecretValues(connection.settings, found);
    collectSecretValues({ api_key: config.tracker?.api_key, sandbox_api_key: config.sandbox?.api_key, token: config.admin?.token }, found);
    collectSecretValues(projectSecrets(config), found);
    for (const alert of config.alerts ?? []) {
      collectSecretValues({ bot_token: alert.bot_token }, found);
      if (alert.url && alert.type !== 'email') found.add(alert.url);
      collectSecretValues(alert.url, found);
    }
    const secrets = [...found].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
    return scrubText(text, secrets);
  };
}
