import { resolve } from 'path';
import { resolveConfigPath } from './config-location';

/**
 * Where this process read its config (its argv and environment), so a reload reads it the same way: the same
 * file (`--config`, TRACKER_SYNC_CONFIG or the default), the same overrides, `<data_dir>/.env` read again.
 */
export class ConfigSource {
  constructor(
    readonly argv: string[],
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** absolute: a CLI in another folder can tell whether a daemon reads the file it wrote */
  get path(): string {
    return resolve(resolveConfigPath(this.argv, this.env));
  }
}
