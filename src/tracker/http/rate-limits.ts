import { setMaxListeners } from 'node:events';
import Bottleneck from 'bottleneck';
import type { RequestBudget } from './request-budget';

/**
 * Client-side rate limits, so the daemon never provokes a 429 itself:
 * - the project-wide budget shared by every call of one client (the service allows
 *   10/s and 5,000/h per project, shared with the project's other integrations);
 * - the specification's Limits table per operation.
 * Per-second and per-minute limits are enforced as even spacing (`minTime`), never as
 * bursts at a window's edge, so a sliding window on the service side is respected too.
 * `'off'` (a target that is not the real service, e.g. a benchmark sink) disables all
 * of them: then `run` is a plain call with no limiter in the path.
 * Given a shared `RequestBudget` (the daemon's store), both are drawn from it instead of from this
 * process's own limiters, so several processes keep to one budget together.
 */

export interface RateLimitBudget {
  per_second: number;
  per_hour: number;
}
export type RateLimitSetting = RateLimitBudget | 'off';

export const DEFAULT_RATE_LIMIT: RateLimitBudget = { per_second: 8, per_hour: 4000 };

/** A per-operation limit; key distinguishes tiers of one operation. */
export interface OperationLimit {
  key: string;
  perSecond?: number;
  perMinute?: number;
}

const HOUR_MS = 3_600_000;

export class RateLimits {
  private readonly project: Bottleneck | null;
  private readonly byOperation = new Map<string, Bottleneck>();
  private readonly closing = new AbortController();

  constructor(
    private readonly setting: RateLimitSetting,
    private readonly shared?: RequestBudget,
  ) {
    this.project = setting === 'off' || shared ? null : projectLimiter(setting);
    setMaxListeners(0, this.closing.signal); // one listener per request waiting for the budget, removed when it goes
  }

  get enabled(): boolean {
    return this.setting !== 'off';
  }

  /** Runs one HTTP attempt inside the operation's limit and the project budget. */
  run<T>(limit: OperationLimit | null, attempt: () => Promise<T>): Promise<T> {
    if (this.shared && this.enabled) return this.shared.take(limit, this.closing.signal).then(attempt);
    if (!this.project) return attempt();
    const inProject = () => this.project!.schedule(attempt);
    return limit ? this.operationLimiter(limit).schedule(inProject) : inProject();
  }

  /** A 429: the shared budget makes every sender of the project wait and shrinks for a while. */
  async penalize(retryAfterMs: number): Promise<void> {
    if (this.shared && this.enabled) await this.shared.penalize(retryAfterMs);
  }

  async stop(): Promise<void> {
    this.closing.abort();
    const all = [this.project, ...this.byOperation.values()].filter((l): l is Bottleneck => !!l);
    await Promise.all(all.map((l) => l.stop({ dropWaitingJobs: true }).catch(() => undefined)));
  }

  private operationLimiter(limit: OperationLimit): Bottleneck {
    let limiter = this.byOperation.get(limit.key);
    if (!limiter) {
      const spacing = Math.max(
        limit.perSecond ? 1000 / limit.perSecond : 0,
        limit.perMinute ? 60_000 / limit.perMinute : 0,
      );
      limiter = new Bottleneck({ minTime: Math.ceil(spacing), maxConcurrent: 1 });
      this.byOperation.set(limit.key, limiter);
    }
    return limiter;
  }
}

function projectLimiter(budget: RateLimitBudget): Bottleneck {
  if (!(budget.per_second > 0) || !(budget.per_hour > 0)) {
    throw new RangeError(`tracker rate_limit: per_second and per_hour must be positive, got ${JSON.stringify(budget)}`);
  }
  return new Bottleneck({
    minTime: Math.ceil(1000 / budget.per_second),
    reservoir: budget.per_hour,
    reservoirRefreshAmount: budget.per_hour,
    reservoirRefreshInterval: HOUR_MS,
  });
}
