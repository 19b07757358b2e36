import { createHash } from 'crypto';
import { resolve } from 'path';
import { resolveConfigPath } from './config-location';
import type { ShadowedVariables } from './dotenv-file';

/**
 * Where this process read its config (its argv and environment), so a reload reads it the same way: the same
 * file (`--config`, TRACKER_SYNC_CONFIG or the default), the same overrides, `<data_dir>/.env` read again.
 */
export class ConfigSource {
  /** the shadowed variables said already, each with a digest of its two values */
  private readonly said = new Map<string, string>();

  constructor(
    readonly argv: string[],
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * A warning for each variable of `<data_dir>/.env` the environment hides with another value, naming the variable
   * and which value is used, never the values: once, and again only when one of its values changes (a token
   * rotated into the file once more), not at every reload.
   */
  shadowWarnings(shadowed: ShadowedVariables): string[] {
    const warnings: string[] = [];
    for (const [name, values] of shadowed.variables) {
      const digest = createHash('sha256').update(`${values.environment}\0${values.file}`).digest('hex');
      if (this.said.get(name) === digest) continue;
      this.said.set(name, digest);
      warnings.push(
        `${name} is set both in the environment and in ${shadowed.file}, to different values: the environment's is used and the file's ignored ` +
          `(the environment wins; unset ${name} in the daemon's environment to use the file's)`,
      );
    }
    return warnings;
  }

  /** absolute: a CLI in another folder can tell whether a daemon reads the file it wrote */
  get path(): string {
    return resolve(resolveConfigPath(this.argv, this.env));
  }
}
