import type { TrackerSyncConfig } from '../config/config.schema';
import { configSecretValues, scrubText } from '../secrets/secret-values';

/**
 * A function that cuts every secret the configuration holds (configSecretValues) out of a text. Alert texts carry run errors, which may echo
 * a connector's request; the alert channels' URLs carry tokens (Slack hooks, Telegram bots).
 */
export function alertScrubber(config: TrackerSyncConfig): (text: string) => string {
  // read at each use: a config reload puts new connections (their secrets) in `config.connections`; the
  // secrets seen before stay known, since a run started under the old settings may still echo them
  const found = new Set<string>();
  return (text) => {
    configSecretValues(config, found);
    const secrets = [...found].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
    return scrubText(text, secrets);
  };
}
