import * as fs from 'fs';
import * as path from 'path';
import { ConnectorDefinition, isConnectorDefinition } from './connector-definition';
import { ConnectorRegistry } from './connector-registry';
import { PROJECT_ROOT, servePluginImports } from './plugin-resolution';
import { ensureTypeScriptHook } from './typescript-require-hook';

/**
 * Loads connectors: every folder of the top-level `connectors/` directory (the built-ins and any plugin
 * dropped there) plus the folders named in config (`connector_paths`). A folder is a plugin when its
 * index.js / index.ts exports a definition. A folder that fails is recorded in `registry.failures`,
 * logged, and skipped: the daemon runs on without it. A plugin imports the contract as `tracker-sync/connector`
 * and the daemon's libraries by name, wherever it lives (plugin-resolution.ts).
 */

export interface LoaderLogger {
  log(message: string): void;
  warn(message: string): void;
  error?(message: string): void;
}

/** Running compiled (dist/src/connectors/plugin-loader.js) or from source under ts-jest. */
const COMPILED = __filename.endsWith('.js');
/** dist/connectors when compiled */
const COMPILED_ROOT = path.resolve(__dirname, '../../connectors');

/** The connectors the build type-checks and compiles (tsconfig.build.json includes these folders only). */
export const BUILT_IN_CONNECTORS = ['generic-crm', 'spreadsheet', 'example-custom'];

/** Built-in folders: compiled ones first when running from dist, then the source tree (plugins dropped later). */
export function builtInConnectorRoots(): string[] {
  return COMPILED ? [COMPILED_ROOT, sourceRoot()] : [sourceRoot()];
}

/** The connectors/ folder of the source tree: the built-ins' sources and plugins dropped in. */
export function sourceRoot(): string {
  return path.join(PROJECT_ROOT, 'connectors');
}

export interface LoadOptions {
  /** load the folders of the top-level connectors/ directory (default true; tests of plugins alone turn it off) */
  builtIns?: boolean;
}

export async function loadConnectors(
  extraFolders: string[],
  logger: LoaderLogger,
  options: LoadOptions = {},
): Promise<ConnectorRegistry> {
  const registry = new ConnectorRegistry();
  const loadedNames = new Set<string>();
  const roots = options.builtIns === false ? extraFolders : [...builtInConnectorRoots(), ...extraFolders];
  for (const folder of pluginFolders(roots, registry)) {
    // Another folder in dist/connectors was compiled by an older build: its source is loaded, not a stale copy.
    if (COMPILED && path.dirname(folder) === COMPILED_ROOT && !BUILT_IN_CONNECTORS.includes(path.basename(folder))) continue;
    // A built-in both compiled in dist/ and in the source tree: the compiled one came first and wins.
    if (COMPILED && loadedNames.has(path.basename(folder)) && path.dirname(folder) === sourceRoot()) continue;
    try {
      const definitions = loadFolder(folder);
      for (const definition of definitions) registry.register(definition);
      loadedNames.add(path.basename(folder));
      logger.log(`connector ${definitions.map((d) => d.name).join(', ')} loaded from ${folder}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      registry.failures.push({ path: folder, reason });
      (logger.error ?? logger.warn).call(logger, `connector plugin ${folder} skipped: ${reason}`);
    }
  }
  return registry;
}

/** A configured path is either a plugin folder itself or a folder of plugin folders. */
function pluginFolders(roots: string[], registry: ConnectorRegistry): string[] {
  const folders: string[] = [];
  for (const root of roots) {
    const absolute = path.resolve(root);
    if (!fs.existsSync(absolute) || !fs.statSync(absolute).isDirectory()) {
      if (!builtInConnectorRoots().includes(root)) {
        registry.failures.push({ path: absolute, reason: 'folder does not exist' });
      }
      continue;
    }
    if (indexFile(absolute)) {
      folders.push(absolute);
      continue;
    }
    const entries = fs.readdirSync(absolute, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('_')) {
        folders.push(path.join(absolute, entry.name));
      }
    }
  }
  return folders;
}

function indexFile(folder: string): string | null {
  for (const name of ['index.js', 'index.ts']) {
    const file = path.join(folder, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

function loadFolder(folder: string): ConnectorDefinition[] {
  const file = indexFile(folder);
  if (!file) throw new Error('no index.ts or index.js');
  if (file.endsWith('.ts')) ensureTypeScriptHook();
  servePluginImports(folder);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(file) as Record<string, unknown>;
  const definitions = exportedDefinitions(exported);
  if (definitions.length === 0) {
    throw new Error(
      `${path.basename(file)} exports no connector definition (expected an object with name, settingsClass, streams, check and read)`,
    );
  }
  return definitions;
}

function exportedDefinitions(exported: Record<string, unknown>): ConnectorDefinition[] {
  const candidates = [exported, exported.default, ...Object.values(exported ?? {})];
  const unique = new Set(candidates.filter(isConnectorDefinition));
  return [...unique];
}
