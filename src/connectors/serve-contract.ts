import * as path from 'path';
import { PROJECT_ROOT, servePluginImports } from './plugin-resolution';

/**
 * Imported first by code that loads a built-in connector by hand outside the daemon and jest (a bench, a probe
 * in a child process): `tracker-sync/connector` then resolves as it does for connectors the loader loads.
 */
servePluginImports(path.join(PROJECT_ROOT, 'connectors'));
