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

  /**
   * A row of a connection's history (a run, a rejection, an alert's condition): its connection is in scope, and the
   * row was made while the connection fed the project it feeds now. A connection id moved from another project
   * brings none of that project's rows; a row from before projects were stamped counts as the connection's project.
   * ALL sees every row, of connections since removed or moved too.
   */
  seesRow(config: Connections, row: { connection_id: string; project?: string | null }): boolean {
    if (this.projects === null) return true;
    const connection = config.connections.find((c) => c.id === row.connection_id);
    if (!connection || !this.seesProject(projectNameOf(connection))) return false;
    return (row.project ?? projectNameOf(connection)) === projectNameOf(connection);
  }

  /**
   * Each project in scope with its connections now (of `ids` only, when given): the rows the scope sees, as the
   * store filters them (src/store/project-rows.ts). With ALL, every connection in its project of the moment.
   */
  connectionsByProject(config: Connections, ids?: readonly string[]): Map<string, string[]> {
    const wanted = ids ? new Set(ids) : null;
    const projects = new Map<string, string[]>();
    for (const connection of config.connections) {
      const project = projectNameOf(connection);
      if (!this.seesProject(project) || (wanted && !wanted.has(connection.id))) continue;
      projects.set(project, [...(projects.get(project) ?? []), connection.id]);
    }
    return projects;
  }

  /** The ids of the config's connections in scope (of `project` only, when given), in config order. */
  connectionIds(config: Connections, project?: string): string[] {
    return config.connections
      .filter((c) => this.seesProject(projectNameOf(c)) && (project === undefined || projectNameOf(c) === project))
      .map((c) => c.id);
  }
}
