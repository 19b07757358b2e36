import { DEFAULT_RATE_LIMIT, RateLimitSetting } from '../tracker/http/rate-limits';
import type { BudgetLimiters } from './budget-limiters';
import { budgetScope, SharedRequestBudget } from './shared-request-budget';

export interface RequestBudgetOptions {
  /** the counters' store of this process (one for all its budgets) */
  limiters: BudgetLimiters;
  /** the service and the project the budget is of: one budget per project */
  baseUrl: string;
  project: string | undefined;
  /** `tracker.rate_limit` (absent: the default; 'off': no budget) */
  rateLimit: RateLimitSetting | undefined;
}

/** The one way budgets are made: a project's budget, or null when the rate limit is off. */
export function createRequestBudget(options: RequestBudgetOptions): SharedRequestBudget | null {
  const setting = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (setting === 'off') return null;
  return new SharedRequestBudget(options.limiters, budgetScope(options.baseUrl, options.project), setting);
}
