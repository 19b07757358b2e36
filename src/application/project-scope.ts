import type { TrackerSyncConfig } from '../config/config.schema';
import { projectNameOf } from '../config/project-targets';

type Connections = Pick<TrackerSyncConfig, 'connections'>;

/**
 * Which projects a caller sees: all of them (the full admin token, the CLI), or those of a scoped admin token.
 * Read against the config of the moment, so a reload that moves a connection moves what a token sees.
 */
export class ProjectScope {
  static readonly ALL = new ProjectScope(null);

  private constructor(readonly projects: readonly string[] | null) {}

  static of(projects: readonly string[]): ProjectScope {
    return new ProjectScope([...projects]);
  }

  get all(): boolean {
    return this.projects === null;
  }

  seesProject(name: string): boolean {
    return this.projects === null || this.projects.includes(name);
  }

  /** A connection of the config whose project is in scope; with a scope, an id the config does not hold is not seen. */
  seesConnection(config: Connections, connectionId: string): boolean {
    if (this.projects === null) return true;
    const connection = config.connections.find((c) => c.id === connectionId);
    return !!connection && this.projects.includes(projectNameOf(connection));
  }

  /** The ids of the config's connections in scope (of `project` only, when given), in config order. */
  connectionIds(config: Connections, project?: string): string[] {
    return config.connections
      .filter((c) => this.seesProject(projectNameOf(c)) && (project === undefined || projectNameOf(c) === project))
      .map((c) => c.id);
  }
}
