import { budgetScope, SharedRequestBudget } from '../budget/shared-request-budget';
import type { RequestBudgetStore } from '../store/repositories/request-budget.store';
import type { RateLimitBudget } from '../tracker/http/rate-limits';

/**
 * The one place a project's request budget is made: kept in the store under the project's own scope (its service
 * and number), so each project paces, backs off after a 429 and counts its hour apart from the others.
 */
export function createProjectBudget(store: RequestBudgetStore, baseUrl: string, project: string | undefined, limits: RateLimitBudget): SharedRequestBudget {
  return new SharedRequestBudget(store, budgetScope(baseUrl, project), limits);
}
