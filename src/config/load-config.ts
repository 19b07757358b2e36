/**
 * Loads the one YAML config: find the file, parse it, expand `${NAME}`, apply environment
 * overrides, then validate everything at once so the user sees every problem in one message.
 */
import { join } from 'path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ConfigError } from './config-error';
import { ConfigLocation, locateConfig } from './config-location';
import { crossFieldProblems, SettingsValidator, settingsProblems } from './config-rules';
import { TrackerSyncConfig } from './config.schema';
import { isMapping } from './config-validators';
import { applyEnvOverrides, blameUnsetVariables, expandEnvReferences, UnsetReferences } from './env-expansion';
import { dataDirOf, shadowedByEnvironment, ShadowedVariables, withDotenv } from './dotenv-file';
import { describeValidationErrors } from './validation-problems';
import { readYamlConfig } from './yaml-source';

export { resolveConfigPath, DEFAULT_CONFIG_PATH } from './config-location';
export type { SettingsValidator } from './config-rules';

export interface LoadConfigOptions {
  /** A file to read; it must exist. Without it: --config in argv, TRACKER_SYNC_CONFIG, the default file. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  argv?: string[];
  settingsValidator?: SettingsValidator;
  /**
   * Told of the variables `<data_dir>/.env` sets that the environment sets otherwise (before validation): the
   * environment wins, so a value the file got later (a rotated token) is not the one used, and the caller says so.
   */
  onShadowed?: (shadowed: ShadowedVariables) => void;
}

/** @throws ConfigError listing every problem, each with its path. */
export function loadConfig(options: LoadConfigOptions = {}): TrackerSyncConfig {
  const env = options.env ?? process.env;
  const location: ConfigLocation = options.file
    ? { path: options.file, source: 'loadConfig' }
    : locateConfig(options.argv ?? process.argv, env);
  const raw = readYamlConfig(location);
  // `${NAME}` references may be answered by <data_dir>/.env (what `init` writes), under the environment
  const dataDir = dataDirOf(raw, env);
  if (options.onShadowed) {
    const shadowed = shadowedByEnvironment(env, dataDir);
    if (shadowed.variables.size) options.onShadowed(shadowed);
  }
  return validateConfig(raw ?? {}, { env: withDotenv(env, dataDir), settingsValidator: options.settingsValidator, file: location.path });
}

/**
 * `connector_paths` as written, read before the whole file is valid: the plugins must be loaded to check the
 * connections that use them, whatever else is wrong in the file. Undefined when the key itself is unusable
 * (not a list of paths), or the file cannot be read or parsed: loadConfig reports that.
 */
export function readConnectorPaths(options: Omit<LoadConfigOptions, 'file' | 'settingsValidator'> = {}): string[] | undefined {
  const env = options.env ?? process.env;
  let raw: unknown;
  try {
    raw = readYamlConfig(locateConfig(options.argv ?? process.argv, env));
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
  if (raw === undefined || raw === null) return [];
  const expanded = expandEnvReferences(raw, env);
  if (!isMapping(expanded)) return undefined;
  const paths = expanded.connector_paths;
  if (paths === undefined || paths === null) return [];
  return Array.isArray(paths) && paths.every((path) => typeof path === 'string' && path !== '') ? paths : undefined;
}

export interface ValidateConfigOptions {
  env?: NodeJS.ProcessEnv;
  settingsValidator?: SettingsValidator;
  /** Named in the error message. */
  file?: string;
}

/** The same pipeline for an already parsed document (YAML `null` means an empty file). */
export function validateConfig(document: unknown, options: ValidateConfigOptions = {}): TrackerSyncConfig {
  const env = options.env ?? process.env;
  const unset: UnsetReferences = new Map();
  const expanded = expandEnvReferences(document ?? {}, env, unset);
  if (!isMapping(expanded)) {
    throw new ConfigError(['the file must be a mapping of sections (server:, tracker:, connections:, ...)'], options.file);
  }
  const origins = applyEnvOverrides(expanded, env);
  const config = plainToInstance(TrackerSyncConfig, expanded);
  const errors = validateSync(config, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  const problems = [
    ...describeValidationErrors(errors, { origins, written: expanded }),
    ...crossFieldProblems(config),
    ...settingsProblems(config, options.settingsValidator),
  ];
  if (problems.length > 0) throw new ConfigError(blameUnsetVariables(problems, unset), options.file);
  return withDerivedDefaults(config);
}

/** Defaults that depend on other keys. */
function withDerivedDefaults(config: TrackerSyncConfig): TrackerSyncConfig {
  if (config.sandbox.db === undefined) config.sandbox.db = join(config.data_dir, 'sandbox.sqlite');
  return config;
}
