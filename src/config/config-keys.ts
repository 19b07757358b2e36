/** The configuration reference, derived from the schema's `@Doc` lines (the README is checked against it). */
import { ConfigClass, docEntries } from './config-doc';
import { TrackerSyncConfig } from './config.schema';

export interface ConfigKey {
  /** e.g. 'tracker.batch_size', 'connections[].sync.overlap_seconds' */
  path: string;
  type: string;
  default: unknown;
  description: string;
}

export function listConfigKeys(): ConfigKey[] {
  return keysOf(TrackerSyncConfig, '');
}

function keysOf(configClass: ConfigClass, prefix: string): ConfigKey[] {
  const defaults = new configClass() as Record<string, unknown>;
  return docEntries(configClass).flatMap((entry) => {
    const path = `${prefix}${entry.key}`;
    const own: ConfigKey = { path, type: entry.type, default: plain(defaults[entry.key]), description: entry.description };
    if (!entry.nested) return [own];
    const nested = keysOf(entry.nested(), entry.list ? `${path}[].` : entry.map ? `${path}.<name>.` : `${path}.`);
    // A section's own line is kept only when it says more than its keys do (a list, or a choice like rate_limit).
    return entry.type === 'mapping' || entry.map ? nested : [own, ...nested];
  });
}

/** Defaults as they would be written in YAML (class instances become plain objects). */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
