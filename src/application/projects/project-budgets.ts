import { Inject, Injectable, Optional } from '@nestjs/common';
import { SharedRequestBudget, RequestBudgetStats } from '../../budget/shared-request-budget';
import { DEFAULT_PROJECT } from '../../config/project-targets';
import type { RateLimitBudget } from '../../tracker/http/rate-limits';

export interface ProjectBudgetStats {
  limits: RateLimitBudget;
  stats: RequestBudgetStats;
}

/** Each project's request budget as this process sees it (GET /api/projects); null: no budget (rate_limit off, or not wired). */
@Injectable()
export class ProjectBudgets {
  constructor(@Optional() @Inject(SharedRequestBudget) private readonly shared: SharedRequestBudget | null) {}

  // wired to ProjectClients at merge: `clients.budget(projectName)`, its `limits` and `stats(now)`, for every project
  stats(projectName: string, now = Date.now()): ProjectBudgetStats | null {
    if (projectName !== DEFAULT_PROJECT || !this.shared) return null;
    return { limits: this.shared.limits, stats: this.shared.stats(now) };
  }
}
