import type { TrackerSyncConfig } from '../config/config.schema';
import type { ConnectorRegistry } from './connector-registry';

/** The connectors' start-up warnings for every configured connection, each naming its connection. */
export function startupWarnings(config: TrackerSyncConfig, registry: ConnectorRegistry): string[] {
  return config.connections.flatMap((connection) => {
    const definition = registry.get(connection.connector);
    if (!definition?.startupWarnings) return [];
    try {
      const settings = registry.instantiateSettings(connection.connector, connection.settings);
      return definition.startupWarnings(settings).map((warning) => `connection ${connection.id}: ${warning}`);
    } catch (error) {
      return [`connection ${connection.id}: the start-up check failed: ${error instanceof Error ? error.message : String(error)}`];
    }
  });
}
