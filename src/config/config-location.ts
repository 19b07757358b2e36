/**
 * Which config file to read: `--config FILE` (or `--config=FILE`), else TRACKER_SYNC_CONFIG,
 * else config/tracker-sync.yaml relative to the working directory.
 */
import { ConfigError } from './config-error';

export const DEFAULT_CONFIG_PATH = 'config/tracker-sync.yaml';

export interface ConfigLocation {
  path: string;
  /** Where the path came from; a file named explicitly must exist, the default may not. */
  source: '--config' | 'TRACKER_SYNC_CONFIG' | 'default' | 'loadConfig';
}

export function locateConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ConfigLocation {
  const fromArgs = configArgument(argv);
  if (fromArgs !== undefined) return { path: fromArgs, source: '--config' };
  const fromEnv = env.TRACKER_SYNC_CONFIG;
  if (fromEnv) return { path: fromEnv, source: 'TRACKER_SYNC_CONFIG' };
  return { path: DEFAULT_CONFIG_PATH, source: 'default' };
}

export function resolveConfigPath(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string {
  return locateConfig(argv, env).path;
}

function configArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--config=')) return nonEmpty(argv[i].slice('--config='.length));
    if (argv[i] === '--config') return nonEmpty(argv[i + 1]);
  }
  return undefined;
}

function nonEmpty(path: string | undefined): string {
  if (!path || path.startsWith('--')) throw new ConfigError(['--config needs a file name: --config FILE']);
  return path;
}
