import { Get, Inject, Optional } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminController } from '../admin/admin-controller.decorator';
import { SharedRequestBudget } from '../budget/shared-request-budget';
import { RequestBudgetResponse } from './request-budget.response';
import { AdminScope } from '../admin/auth/admin-scope.decorator';

/** The shared request budget, for the status page's "waiting on the budget" block. */
@AdminController('budget')
export class RequestBudgetController {
  constructor(@Optional() @Inject(SharedRequestBudget) private readonly budget: SharedRequestBudget | null) {}

  @Get()
  @AdminScope('installation')
  @ApiOperation({ summary: "the project's request budget shared by the installation: what is left, what waits for it" })
  @ApiOkResponse({ type: RequestBudgetResponse })
  read(): RequestBudgetResponse {
    if (!this.budget) {
      return { enabled: false, per_second: null, per_hour: null, waiting: 0, waiting_since: null, longest_wait_seconds: 0, wait_seconds_total: 0, remaining: null };
    }
    const now = Date.now();
    const stats = this.budget.stats(now);
    return {
      enabled: true,
      per_second: this.budget.limits.per_second,
      per_hour: this.budget.limits.per_hour,
      waiting: stats.waiting,
      waiting_since: stats.waitingSince === null ? null : new Date(stats.waitingSince).toISOString(),
      longest_wait_seconds: stats.waitingSince === null ? 0 : Math.round(now - stats.waitingSince) / 1000,
      wait_seconds_total: Math.round(stats.waitSecondsTotal * 1000) / 1000,
      remaining: stats.remaining,
    };
  }
}
