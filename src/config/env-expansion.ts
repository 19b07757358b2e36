/**
 * `${NAME}` and `${NAME:-default}` in string values of the parsed YAML (never in the raw text,
 * so a value containing quotes or colons cannot break the file's structure). `$${` keeps a
 * literal `${`. A value that expands to nothing counts as absent, so `base_url: ${TRACKER_BASE_URL}`
 * with the variable unset means "no base_url" rather than an empty URL.
 */
import { isMapping } from './config-validators';

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function expandEnvReferences(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') return expandString(value, env);
  if (Array.isArray(value)) return value.map((item) => expandEnvReferences(item, env));
  if (!isMapping(value)) return value;
  const expanded: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const result = expandEnvReferences(item, env);
    if (!isAbsent(item, result)) expanded[key] = result;
  }
  return expanded;
}

/** `key:` with no value, or a value that only referenced unset variables, is left out. */
function isAbsent(original: unknown, expanded: unknown): boolean {
  if (original === null || original === undefined) return true;
  return typeof original === 'string' && original.includes('${') && expanded === '';
}

function expandString(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
    if (name === undefined) return '${';
    const value = env[name];
    return value !== undefined && value !== '' ? value : (fallback ?? '');
  });
}

/** Environment variables that override the file, as in the README. */
export const ENV_OVERRIDES: ReadonlyArray<readonly [variable: string, path: string]> = [
  ['TRACKER_BASE_URL', 'tracker.base_url'],
  ['TRACKER_API_KEY', 'tracker.api_key'],
  ['TRACKER_PROJECT', 'tracker.project'],
  ['ADMIN_TOKEN', 'admin.token'],
  ['DATA_DIR', 'data_dir'],
  ['PORT', 'server.port'],
  ['LOG_FORMAT', 'log.format'],
  ['LOG_LEVEL', 'log.level'],
  ['DATABASE_URL', 'store.url'],
];

/**
 * Writes the set variables into `config` (in place) and returns which path came from which
 * variable, so a bad value can be blamed on the variable rather than on the file.
 */
export function applyEnvOverrides(config: Record<string, unknown>, env: NodeJS.ProcessEnv): Map<string, string> {
  const origins = new Map<string, string>();
  for (const [variable, path] of ENV_OVERRIDES) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    if (setPath(config, path.split('.'), value)) origins.set(path, variable);
  }
  return origins;
}

function setPath(target: Record<string, unknown>, keys: string[], value: string): boolean {
  const [key, ...rest] = keys;
  if (rest.length === 0) {
    target[key] = value;
    return true;
  }
  if (target[key] === undefined) target[key] = {};
  const next = target[key];
  // A section that is not a mapping is reported by validation; the override has nowhere to go.
  return isMapping(next) ? setPath(next, rest, value) : false;
}
