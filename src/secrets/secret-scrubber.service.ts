import { Injectable } from '@nestjs/common';
import { TrackerSyncConfig } from '../config';
import { redactSecrets } from '../config/redact';
import { configSecretValues, scrubKnownSecrets, scrubText } from './secret-values';

/**
 * Keeps secrets out of every admin answer and CLI line: values under secret-looking keys are masked
 * (redactSecrets), and each secret the configuration holds (configSecretValues) is cut out of any text, e.g. a
 * connector's error that echoes its request.
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
    this.secrets = [...configSecretValues(config, new Set(this.secrets))];
  }

  scrub<T>(value: T): T {
    return scrubKnownSecrets(redactSecrets(value), this.secrets);
  }

  text(message: string): string {
    return scrubText(message, this.secrets);
  }
}
