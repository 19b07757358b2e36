/**
 * What the daemon and the CLI do before Nest starts: load and validate the config (connector settings
 * included, so one message lists every problem), load the connectors, and decide the service target:
 * the real service when `tracker.base_url` is set, otherwise the embedded sandbox in this process.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { ConfigSource, loadConfig, LoadConfigOptions, readConnectorPaths, SettingsValidator, TrackerSyncConfig } from './config';
import { hasNamedProjects, projectNameOf } from './config/project-targets';
import { ADMIN_TOKEN_FILE } from './config/admin-token-file';
import { DOTENV_FILE } from './config/dotenv-file';
import { createPrivateFile, keepDataDirPrivate, makePrivateDir, sqliteFiles } from './config/private-files';
import { STORE_FILE } from './store/store-data-source';
import type { ConnectorRegistry } from './connectors/connector-registry';
import { loadConnectors } from './connectors/plugin-loader';
import { startupWarnings } from './connectors/startup-warnings';
import { createLogger, LogDestination } from './observability/logger';
import type { SandboxOptions } from './sandbox/sandbox-options';
import type { TrackerClientOptions } from './tracker/tracker-client';

export const SANDBOX_PATH = 'sandbox/api/v1';
const SANDBOX_PROJECT = '1';

export interface BootContext {
  config: TrackerSyncConfig;
  registry: ConnectorRegistry;
  logger: Logger;
  /** the port the HTTP server listens on (resolved when the config says 0) */
  port: number;
  /** set when this process hosts the embedded sandbox */
  sandbox: SandboxOptions | null;
  /** how the typed client reaches the service (real or embedded) */
  tracker: TrackerClientOptions;
  /** where the config was read: a reload reads it there again */
  source: ConfigSource;
}

export interface PrepareOptions {
  argv?: string[];
  env?: NodeJS.ProcessEnv;
  /** the CLI listens on a free port of its own so it can run beside a running daemon */
  ephemeralPort?: boolean;
  /** where log lines go (default stdout; the CLI's go to stderr) */
  logDestination?: LogDestination;
}

/** @throws ConfigError listing every problem of the config file, connector settings included. */
export async function prepareBoot(options: PrepareOptions = {}): Promise<BootContext> {
  const argv = options.argv ?? process.argv;
  const env = options.env ?? process.env;
  const source = new ConfigSource(argv, env);
  let shadowed: string[] = [];
  const { config, registry } = await loadConfigAndConnectors(argv, env, (variables) => (shadowed = source.shadowWarnings(variables)));
  const logger = createLogger(config.log, options.logDestination, projectOfConnection(config));
  for (const warning of shadowed) logger.warn(warning);
  // before the store and the sandbox open their files: SQLite gives -wal and -shm the database file's mode
  keepDataDirPrivate(config.data_dir, privateFiles(config), { info: (m) => logger.info(m), warn: (m) => logger.warn(m) });
  for (const failure of registry.failures) logger.warn(`connector plugin ${failure.path} skipped: ${failure.reason}`);
  for (const warning of startupWarnings(config, registry)) logger.warn(warning);

  const port = options.ephemeralPort || config.server.port === 0 ? await freePort() : config.server.port;
  const sandbox = config.tracker.base_url ? null : embeddedSandbox(config);
  const tracker = trackerTarget(config, port, sandbox);
  return { config, registry, logger, port, sandbox, tracker, source };
}

/**
 * Each problem of the file is reported once: the plugins of `connector_paths` are loaded before the file is
 * validated (whatever else is wrong in it), so a connection using one is checked against it. When that key
 * itself is wrong, it is the one problem reported for those connections, not also "not a known connector".
 */
async function loadConfigAndConnectors(argv: string[], env: NodeJS.ProcessEnv, onShadowed: LoadConfigOptions['onShadowed']) {
  const silent = { log: () => undefined, warn: () => undefined };
  const paths = readConnectorPaths({ argv, env });
  const registry = await loadConnectors(paths ?? [], silent);
  const settingsValidator: SettingsValidator = paths
    ? registry.validateSettings
    : (connector, settings, path) => (registry.get(connector) ? registry.validateSettings(connector, settings, path) : []);
  const config = loadConfig({ argv, env, settingsValidator, onShadowed });
  return { config, registry };
}

/** The files the daemon writes in data_dir itself, and the embedded sandbox's database (the connectors' work files are made 0600 as they are written). */
function privateFiles(config: TrackerSyncConfig): string[] {
  const dir = config.data_dir;
  const sandbox = config.tracker.base_url || !config.sandbox.db ? [] : sqliteFiles(config.sandbox.db);
  return [...sqliteFiles(join(dir, STORE_FILE)), join(dir, ADMIN_TOKEN_FILE), join(dir, SANDBOX_KEY_FILE), join(dir, DOTENV_FILE), ...sandbox];
}

function embeddedSandbox(config: TrackerSyncConfig): SandboxOptions {
  makePrivateDir(config.data_dir);
  const db = config.sandbox.db ?? join(config.data_dir, 'sandbox.sqlite');
  // the sandbox's own SQLite would create its database 0644: it holds every record sent to it
  if (db !== ':memory:') {
    makePrivateDir(dirname(db));
    createPrivateFile(db);
  }
  return {
    db,
    seed: config.sandbox.seed,
    apiKey: config.sandbox.api_key ?? persistentSandboxKey(config.data_dir),
    projects: config.sandbox.projects,
    budget: config.sandbox.budget,
    faults: config.sandbox.faults,
    latencyMs: config.sandbox.latency_ms,
    clientTimeoutMs: config.tracker.timeout_ms,
  };
}

/** JSON log lines of a connection name its project where the config names projects (read at each line: a reload adds projects and connections). */
function projectOfConnection(config: TrackerSyncConfig): (connectionId: string) => string | undefined {
  return (connectionId) => {
    if (!hasNamedProjects(config)) return undefined;
    const connection = config.connections.find((c) => c.id === connectionId);
    return connection ? projectNameOf(connection) : undefined;
  };
}

const SANDBOX_KEY_FILE = 'sandbox-api-key';

/** The embedded sandbox's key survives restarts so its stored project stays reachable. */
function persistentSandboxKey(dataDir: string): string {
  const file = join(dataDir, SANDBOX_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = `sandbox-${randomBytes(12).toString('hex')}`;
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}

function trackerTarget(config: TrackerSyncConfig, port: number, sandbox: SandboxOptions | null): TrackerClientOptions {
  const t = config.tracker;
  // batch_size and concurrency are the engine's (it splits the batches); the client sends one request per call
  const common = {
    timeoutMs: t.timeout_ms,
    retries: t.retries,
    rateLimit: t.rate_limit,
  };
  if (!sandbox) return { ...common, baseUrl: t.base_url!, apiKey: t.api_key ?? '', project: t.project };
  const host = ['0.0.0.0', '::', ''].includes(config.server.host) ? '127.0.0.1' : config.server.host;
  return {
    ...common,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}/${SANDBOX_PATH}`,
    apiKey: sandbox.apiKey!,
    project: SANDBOX_PROJECT,
    service: `the embedded sandbox (${sandbox.db === ':memory:' ? sandbox.db : resolve(sandbox.db)})`,
  };
}

/** A port nobody listens on now (the HTTP server takes it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
