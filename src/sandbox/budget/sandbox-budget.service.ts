import { Inject, Injectable } from '@nestjs/common';
import { tooManyRequests } from '../errors/sandbox-error';
import { SANDBOX_OPTIONS, SandboxOptions } from '../sandbox-options';
import { SlidingWindow } from './sliding-window';

export interface OperationLimit {
  max: number;
  windowMs: number;
}

/**
 * The service's limits: a project-wide budget (10 requests/s and 5,000/h) and the per-operation
 * limits of the Limits table (order list, visit list). Budget 'off' lifts all of them.
 */
@Injectable()
export class SandboxBudgetService {
  private readonly perSecond = new SlidingWindow(10, 1000);
  private readonly perHour = new SlidingWindow(5000, 3_600_000);
  private readonly operations = new Map<string, SlidingWindow>();

  constructor(@Inject(SANDBOX_OPTIONS) private readonly options: SandboxOptions) {}

  get enabled(): boolean {
    return this.options.budget !== 'off';
  }

  /** Charges one request to the project's budget; throws 429 with Retry-After when spent. */
  chargeProject(projectId: number): void {
    if (!this.enabled) return;
    const key = String(projectId);
    const now = Date.now();
    for (const [window, label] of [[this.perSecond, '10 requests per second'], [this.perHour, '5000 requests per hour']] as const) {
      const verdict = window.take(key, now);
      if (!verdict.ok) throw tooManyRequests(`project ${projectId}: budget of ${label} spent`, verdict.retryAfterSeconds);
    }
  }

  /** Charges one call of an operation against each of its limits (e.g. 1/s and 15/min). */
  chargeOperation(projectId: number, operation: string, limits: OperationLimit[]): void {
    if (!this.enabled) return;
    const now = Date.now();
    for (const limit of limits) {
      const name = `${operation}:${limit.max}/${limit.windowMs}`;
      let window = this.operations.get(name);
      if (!window) {
        window = new SlidingWindow(limit.max, limit.windowMs);
        this.operations.set(name, window);
      }
      const verdict = window.take(String(projectId), now);
      if (!verdict.ok) {
        throw tooManyRequests(
          `${operation}: at most ${limit.max} requests per ${limit.windowMs / 1000} s`, verdict.retryAfterSeconds);
      }
    }
  }
}
