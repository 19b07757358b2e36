import { Injectable } from '@nestjs/common';
import { TrackerSyncConfig } from '../../config/config.schema';
import { projectNameOf, projectTargets } from '../../config/project-targets';
import { OpenRejectionStore } from '../../store';
import { RunsQueryService } from '../runs/runs-query.service';
import { ProjectBudgets } from './project-budgets';
import { ProjectBudgetResponse, ProjectResponse } from './project.response';
import { ProjectScope } from '../project-scope';

/**
 * The projects of the installation (GET /api/projects), those of the scope only: each with its connections, their
 * last syncs, its budget and its open rejections. Three queries whatever the number of projects (the last runs,
 * their rejected-record counts, the open rejections), so the status page can poll it with a hundred projects.
 */
@Injectable()
export class ProjectsQueryService {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly runs: RunsQueryService,
    private readonly openRejections: OpenRejectionStore,
    private readonly budgets: ProjectBudgets,
  ) {}

  async list(scope = ProjectScope.ALL): Promise<ProjectResponse[]> {
    const targets = projectTargets(this.config).filter((target) => scope.seesProject(target.name));
    const ids = scope.connectionIds(this.config);
    // each connection's, in the project it feeds now (not a project's it left)
    const projects = ProjectScope.ALL.connectionsByProject(this.config, ids);
    const [lastRuns, open] = await Promise.all([this.runs.lastRunsOf(ids, { direction: 'sync' }), this.openRejections.countsOf(ids, projects)]);
    const now = Date.now();
    return targets.map((target) => {
      const connections = this.config.connections.filter((c) => projectNameOf(c) === target.name).map((c) => c.id);
      const byConnection = Object.fromEntries(connections.map((id) => [id, open.get(id) ?? 0]));
      return {
        name: target.name,
        number: target.project ?? null,
        connections,
        last_runs: Object.fromEntries(connections.map((id) => [id, lastRuns.get(id) ?? null])),
        budget: this.budgetOf(target.name, now),
        open_rejections: { total: Object.values(byConnection).reduce((sum, n) => sum + n, 0), by_connection: byConnection },
      };
    });
  }

  private budgetOf(name: string, now: number): ProjectBudgetResponse | null {
    const budget = this.budgets.stats(name, now);
    if (!budget) return null;
    const { limits, stats } = budget;
    return {
      per_second: limits.per_second,
      per_hour: limits.per_hour,
      used_this_second: Math.max(0, limits.per_second - stats.remaining.second),
      used_this_hour: Math.max(0, limits.per_hour - stats.remaining.hour),
      waiting: stats.waiting,
    };
  }
}
