import Module = require('module');
import * as path from 'path';

/**
 * Lets a plugin living anywhere (a folder of `connector_paths`, outside this repository) import the
 * contract as `tracker-sync/connector` and the libraries the daemon ships (class-validator, luxon, ...)
 * with no install of its own and no NODE_PATH. A plugin's own node_modules, when it has one, still wins.
 * Plain Node resolution only: under jest, jest.config.js maps the same names.
 */

export const CONTRACT_MODULE = 'tracker-sync/connector';

type ResolveFilename = (request: string, parent: Module | undefined, isMain: boolean, options?: { paths?: string[] }) => string;
const nodeModule = Module as unknown as { _resolveFilename: ResolveFilename };

/** The daemon's package root (also from dist/src/connectors/): its node_modules serve the plugins' bare imports. */
const COMPILED = __filename.endsWith('.js');
export const PROJECT_ROOT = path.resolve(__dirname, COMPILED ? '../../..' : '../..');

const pluginFolders = new Set<string>();
let installed = false;

/** Resolves the contract and the daemon's libraries for modules inside `folder` (idempotent). */
export function servePluginImports(folder: string): void {
  pluginFolders.add(path.resolve(folder) + path.sep);
  if (installed) return;
  installed = true;
  const original = nodeModule._resolveFilename;
  nodeModule._resolveFilename = function resolvePluginImport(this: unknown, request, parent, isMain, options) {
    if (request === CONTRACT_MODULE) return contractFile();
    try {
      return original.call(this, request, parent, isMain, options);
    } catch (error) {
      if (!isBareImport(request) || !insidePlugin(parent)) throw error;
      return original.call(this, request, parent, isMain, { paths: [PROJECT_ROOT] });
    }
  };
}

/** src/connector.ts under ts-node, dist/src/connector.js when compiled. */
function contractFile(): string {
  return require.resolve('../connector');
}

function isBareImport(request: string): boolean {
  return !request.startsWith('.') && !path.isAbsolute(request) && !request.startsWith('node:');
}

function insidePlugin(parent: Module | undefined): boolean {
  const file = parent?.filename;
  return !!file && [...pluginFolders].some((folder) => file.startsWith(folder));
}
