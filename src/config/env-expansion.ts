/**
 * `${NAME}` and `${NAME:-default}` in string values of the parsed YAML (never in the raw text,
 * so a value containing quotes or colons cannot break the file's structure). `$${` keeps a
 * literal `${`. A value that expands to nothing counts as absent, so `base_url: ${TRACKER_BASE_URL}`
 * with the variable unset means "no base_url" rather than an empty URL; a required one is reported as
 * `path: ${NAME} is not set (environment variable NAME)`.
 */
import { isMapping } from './config-validators';

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A value that named variables which are not set (and gave no default), by config path. */
export interface UnsetReference {
  /** the value as written, e.g. '${AMO_TOKEN}' (quoted in messages only when it was nothing but references) */
  written: string;
  variables: string[];
  /** it expanded to nothing, so the key was left out */
  absent: boolean;
}

export type UnsetReferences = Map<string, UnsetReference>;

/** `unset` collects the paths whose values referenced unset variables, for {@link blameUnsetVariables}. */
export function expandEnvReferences(value: unknown, env: NodeJS.ProcessEnv, unset: UnsetReferences = new Map(), path = ''): unknown {
  if (typeof value === 'string') return expandString(value, env, unset, path);
  if (Array.isArray(value)) return value.map((item, index) => expandEnvReferences(item, env, unset, `${path}[${index}]`));
  if (!isMapping(value)) return value;
  const expanded: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const result = expandEnvReferences(item, env, unset, path ? `${path}.${key}` : key);
    if (!isAbsent(item, result)) expanded[key] = result;
  }
  return expanded;
}

/** `key:` with no value, or a value that only referenced unset variables, is left out. */
function isAbsent(original: unknown, expanded: unknown): boolean {
  if (original === null || original === undefined) return true;
  return typeof original === 'string' && original.includes('${') && expanded === '';
}

function expandString(text: string, env: NodeJS.ProcessEnv, unset: UnsetReferences, path: string): string {
  const missing: string[] = [];
  const expanded = text.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
    if (name === undefined) return '${';
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback === undefined) missing.push(name);
    return fallback ?? '';
  });
  if (missing.length) unset.set(path, { written: text, variables: [...new Set(missing)], absent: expanded === '' });
  return expanded;
}

/**
 * Problems of values that referenced unset variables name the variables: a required key left out because
 * `${AMO_TOKEN}` is unset reads `connections[0].settings.token: ${AMO_TOKEN} is not set (environment variable
 * AMO_TOKEN)` instead of "is required". A value that kept other text
 * (`https://${HOST}/api`) keeps its problem, which then says which variable is not set.
 */
export function blameUnsetVariables(problems: string[], unset: UnsetReferences): string[] {
  if (unset.size === 0) return problems;
  const blamed = problems.map((problem) => {
    for (const [path, reference] of unset) {
      const variables = `environment variable${reference.variables.length > 1 ? 's' : ''} ${reference.variables.join(', ')}`;
      if (!problem.startsWith(`${path}: `)) continue;
      return reference.absent ? `${path}: ${reference.written} is not set (${variables})` : `${problem} (${variables} not set)`;
    }
    return problem;
  });
  return [...new Set(blamed)];
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
