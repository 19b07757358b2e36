import { Inject, Injectable, Optional } from '@nestjs/common';
import { SharedRequestBudget, RequestBudgetStats } from '../../budget/shared-request-budget';
import { DEFAULT_PROJECT } from '../../config/project-targets';
import { ProjectClients } from '../../projects/project-clients';
import type { RateLimitBudget } from '../../tracker/http/rate-limits';

export interface ProjectBudgetStats {
  limits: RateLimitBudget;
  stats: RequestBudgetStats;
}

/** Each project's request budget as this process sees it (GET /api/projects); null: no budget (its rate_limit is off). */
@Injectable()
export class ProjectBudgets {
  constructor(
    @Optional() @Inject(ProjectClients) private readonly clients: ProjectClients | null,
    @Optional() @Inject(SharedRequestBudget) private readonly shared: SharedRequestBudget | null,
  ) {}

  stats(projectName: string, now = Date.now()): ProjectBudgetStats | null {
    // a process wired with one client only (tests that build the app by hand) has the default project's budget
    const budget = this.clients ? this.clients.budget(projectName) : projectName === DEFAULT_PROJECT ? this.shared : null;
    return budget ? { limits: budget.limits, stats: budget.stats(now) } : null;
  }
}
