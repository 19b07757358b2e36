import { basename } from 'path';
import { ConnectorDefinition } from './connector-definition';
import { settingsProblems, toSettingsInstance } from './settings-validation';

/**
 * Validates one connection's settings. `path` names the connection in the config, e.g. `connections[0]`
 * (a trailing `.settings` is accepted too); each problem starts with the full path of the key.
 */
export type SettingsValidator = (connector: string, settings: unknown, path: string) => string[];

export interface ConnectorLoadFailure {
  /** folder or file that failed */
  path: string;
  reason: string;
}

/** The connectors known to this process: built-ins and plugins that loaded. */
export class ConnectorRegistry {
  private readonly definitions = new Map<string, ConnectorDefinition>();
  /** plugins that failed to load or validate; the daemon runs on without them */
  readonly failures: ConnectorLoadFailure[] = [];

  register(definition: ConnectorDefinition): void {
    if (this.definitions.has(definition.name)) {
      throw new Error(`connector "${definition.name}" is already registered`);
    }
    this.definitions.set(definition.name, definition);
  }

  get(name: string): ConnectorDefinition | undefined {
    return this.definitions.get(name);
  }

  list(): ConnectorDefinition[] {
    return [...this.definitions.values()];
  }

  names(): string[] {
    return [...this.definitions.keys()];
  }

  readonly validateSettings: SettingsValidator = (connector, settings, path) => {
    const connectionPath = path.replace(/\.settings$/, '');
    const definition = this.definitions.get(connector);
    if (!definition) {
      return [`${connectionPath}.connector: ${this.unknownConnector(connector)}`];
    }
    return settingsProblems(definition.settingsClass, withoutFlowBlocks(definition, settings), `${connectionPath}.settings`);
  };

  /** The typed settings instance, class defaults applied. Validate first: this does not check. */
  instantiateSettings<S extends object = object>(connector: string, settings: unknown): S {
    const definition = this.definitions.get(connector);
    if (!definition) throw new Error(this.unknownConnector(connector));
    return toSettingsInstance(definition.settingsClass, settings) as S;
  }

  /** Says why when a plugin failed to load: its folder is named like the connector, or it is listed. */
  private unknownConnector(connector: string): string {
    const failed = this.failures.find((failure) => basename(failure.path) === connector);
    if (failed) return `${JSON.stringify(connector)} failed to load from ${failed.path}: ${failed.reason}`;
    const unknown = `${JSON.stringify(connector)} is not a known connector (known: ${this.names().join(', ')})`;
    if (this.failures.length === 0) return unknown;
    return `${unknown}; plugins that failed to load: ${this.failures.map((f) => `${f.path} (${f.reason})`).join('; ')}`;
  }
}

/** The settings without the flows' blocks the connector serves actions for: each flow checks its own block when it plans. */
function withoutFlowBlocks(definition: ConnectorDefinition, settings: unknown): unknown {
  if (!definition.actions || !settings || typeof settings !== 'object' || Array.isArray(settings)) return settings;
  const flowKeys = new Set(definition.actions.flowKeys(settings));
  return Object.fromEntries(Object.entries(settings).filter(([key]) => !flowKeys.has(key)));
}
