/** Rules that span several keys, checked after each key has its own type and range checked. */
import { adminTokenProblems } from './admin-tokens';
import { alertProblems } from './alert-config';
import { TrackerSyncConfig } from './config.schema';
import { isMapping } from './config-validators';
import { projectProblems } from './project-rules';
import { DEFAULT_PROJECT } from './project-targets';

/**
 * Validates one connection's free-form `settings` for its connector (provided by the connector
 * registry). Returns problems already prefixed with `path`, e.g. `connections[0].settings.deals.path: ...`;
 * an unknown connector name is reported through it too.
 */
export type SettingsValidator = (connector: string, settings: unknown, path: string) => string[];

export function crossFieldProblems(config: TrackerSyncConfig): string[] {
  const connectionIds = Array.isArray(config.connections) ? config.connections.map((c) => (isMapping(c) ? String(c.id) : '')) : [];
  return [
    ...duplicateConnectionIds(config), ...realServiceCredentials(config), ...registeredStatusesUnmapped(config), ...projectProblems(config), ...clusterStore(config),
    ...alertProblems(config.alerts, connectionIds, [DEFAULT_PROJECT, ...(isMapping(config.projects) ? Object.keys(config.projects) : [])]),
    ...adminTokenProblems(config.admin, isMapping(config.projects) ? Object.keys(config.projects) : []),
  ];
}

/** `statuses: register` sends the CRM's own stage ids: a status_map would send other ids than those registered. */
function registeredStatusesUnmapped(config: TrackerSyncConfig): string[] {
  if (!Array.isArray(config.connections)) return [];
  return config.connections.flatMap((connection, index) => {
    if (!isMapping(connection) || connection.statuses !== 'register' || !isMapping(connection.settings)) return [];
    if (connection.settings.status_map === undefined) return [];
    return [`connections[${index}].statuses: register sends the CRM's own stage ids; remove settings.status_map (or use statuses: map)`];
  });
}

function duplicateConnectionIds(config: TrackerSyncConfig): string[] {
  if (!Array.isArray(config.connections)) return [];
  const firstIndex = new Map<string, number>();
  const problems: string[] = [];
  config.connections.forEach((connection, index) => {
    if (!isMapping(connection) || typeof connection.id !== 'string') return;
    // Ids end up in URLs and file names: "Demo" and "demo" would collide there.
    const key = connection.id.toLowerCase();
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    else problems.push(`connections[${index}].id: ${JSON.stringify(connection.id)} is already the id of connections[${first}]`);
  });
  return problems;
}

/** Pointing at the real service without a key or project would fail every request later. */
function realServiceCredentials(config: TrackerSyncConfig): string[] {
  const tracker = config.tracker;
  if (!isMapping(tracker) || !tracker.base_url) return [];
  const required = (key: 'api_key' | 'project', variable: string) =>
    tracker[key] === undefined ? [`tracker.${key}: is required when tracker.base_url is set (or set ${variable})`] : [];
  // With projects: the tracker: section may hold only what they share (a key, a URL) when no connection feeds it.
  const projects = isMapping(config.projects) ? Object.keys(config.projects) : [];
  const feedsDefault = !Array.isArray(config.connections) || projects.length === 0
    || config.connections.some((connection) => isMapping(connection) && (connection.project === undefined || connection.project === 'default'));
  const keyNeeded = feedsDefault || Object.values(config.projects ?? {}).some((block) => isMapping(block) && !block.api_key);
  return [...(keyNeeded ? required('api_key', 'TRACKER_API_KEY') : []), ...(feedsDefault ? required('project', 'TRACKER_PROJECT') : [])];
}

export function settingsProblems(config: TrackerSyncConfig, validator: SettingsValidator | undefined): string[] {
  if (!validator || !Array.isArray(config.connections)) return [];
  return config.connections.flatMap((connection, index) => {
    if (!isMapping(connection) || typeof connection.connector !== 'string' || connection.connector.trim() === '') return [];
    if (!isMapping(connection.settings)) return [];
    const path = `connections[${index}].settings`;
    try {
      return validator(connection.connector, connection.settings, path);
    } catch (error) {
      // A broken connector must not hide the other problems of the file.
      return [`${path}: connector "${connection.connector}" failed to check its settings: ${(error as Error).message}`];
    }
  });
}

/** The daemons of a cluster share one store: a SQLite file per machine would split their state. */
function clusterStore(config: TrackerSyncConfig): string[] {
  if (!isMapping(config.cluster) || !config.cluster.redis) return [];
  return isMapping(config.store) && config.store.url ? [] : ['cluster.redis: requires store.url (a PostgreSQL store shared by the daemons; env DATABASE_URL)'];
}
