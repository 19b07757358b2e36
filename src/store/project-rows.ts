import { Brackets, Equal, FindOptionsWhere, In, IsNull, Or, WhereExpressionBuilder } from 'typeorm';

/**
 * Which rows of the connections' history a reader sees: each project (its name in the config) with the connections
 * it has now. A row (run, webhook call, alert condition or delivery) is its project's: the one stamped on it when it
 * was made (a rejected record and an open rejection: their run's), so a connection id that moved to another project
 * takes none of its history along. A row from before projects were stamped (null) counts as its connection's project
 * of the moment: which project made it was never recorded, and every reader took it as that one's until then.
 */
export type ProjectConnections = ReadonlyMap<string, readonly string[]>;

/**
 * `base` narrowed to the rows of `projects`, as find options (one alternative per project; OR-ed by TypeORM), or
 * null when no project has a connection: then nothing matches (an empty list would match everything).
 */
export function whereOfProjects<T extends { connection_id: unknown; project?: unknown }>(
  base: FindOptionsWhere<T>,
  projects: ProjectConnections,
): FindOptionsWhere<T>[] | null {
  const alternatives = [...projects].filter(([, ids]) => ids.length).map(([project, ids]) => ({
    ...base,
    connection_id: In([...ids]),
    project: Or(Equal(project), IsNull()),
  }) as FindOptionsWhere<T>);
  return alternatives.length ? alternatives : null;
}

/**
 * The same condition for a query builder on `alias` (a project without connections matches nothing). `runColumn`:
 * the rows carry no project of their own but are their run's (an open rejection's `last_run_id`): one whose run was
 * stamped with another project is left out (an unstamped or unknown run counts as the connection's project).
 */
export function andOfProjects(query: WhereExpressionBuilder, alias: string, projects: ProjectConnections, runColumn?: string): void {
  const groups = [...projects].filter(([, ids]) => ids.length);
  query.andWhere(new Brackets((any) => {
    if (!groups.length) any.where('1 = 0');
    groups.forEach(([project, ids], i) => {
      const own = runColumn
        ? `NOT EXISTS (SELECT 1 FROM run pr${i} WHERE pr${i}.id = ${alias}.${runColumn} AND pr${i}.project <> :projectName${i})`
        : `(${alias}.project = :projectName${i} OR ${alias}.project IS NULL)`;
      any.orWhere(`(${alias}.connection_id IN (:...projectIds${i}) AND ${own})`, { [`projectIds${i}`]: [...ids], [`projectName${i}`]: project });
    });
  }));
}

/** One connection in the project it has now. */
export function inProject(connectionId: string, project: string): ProjectConnections {
  return new Map([[project, [connectionId]]]);
}
