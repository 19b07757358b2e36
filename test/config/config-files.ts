/** Real config files in a temp folder, removed after the suite. */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ConfigError } from '../../src/config/config-error';

export class ConfigFiles {
  readonly dir = mkdtempSync(join(tmpdir(), 'tracker-sync-config-'));
  private count = 0;

  write(yaml: string, name = `config-${++this.count}.yaml`): string {
    const file = join(this.dir, name);
    writeFileSync(file, yaml);
    return file;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The ConfigError thrown by `load`, failing the test when nothing (or something else) is thrown. */
export function configErrorOf(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, but the config loaded');
}
