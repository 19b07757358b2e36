import { setMaxListeners } from 'node:events';
import Bottleneck from 'bottleneck';
import { FirstRequestGate, operationSpacingMs, Spacer, spacingMs } from '../../http/rate-spacing';
import type { RequestBudget } from './request-budget';

/**
 * Client-side rate limits, so the daemon never provokes a 429 itself:
 * - the project-wide budget shared by every call of one client (the service allows
 *   10/s and 5,000/h per project, shared with the project's other integrations);
 * - the specification's Limits table per operation.
 * Per-second and per-minute limits are enforced as even spacing (a `Spacer`), never as
 * bursts at a window's edge, with a margin (src/http/rate-spacing.ts), so the service's sliding window
 * holds where the requests arrive.
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
  /** the hour's reservoir (Bottleneck); the spacing is the Spacer's, measured where requests leave */
  private readonly project: Bottleneck | null;
  private readonly projectSpacer: Spacer | null;
  private readonly byOperation = new Map<string, { limiter: Bottleneck; spacer: Spacer }>();
  private readonly closing = new AbortController();
  private readonly firstRequest = new FirstRequestGate();

  constructor(
    private readonly setting: RateLimitSetting,
    private readonly shared?: RequestBudget,
  ) {
    this.project = setting === 'off' || shared ? null : projectLimiter(setting);
    this.projectSpacer = setting === 'off' || shared ? null : new Spacer(spacingMs(setting.per_second, 1000));
    setMaxListeners(0, this.closing.signal); // one listener per request waiting for the budget, removed when it goes
  }

  get enabled(): boolean {
    return this.setting !== 'off';
  }

  /** Runs one HTTP attempt inside the operation's limit and the project budget. */
  run<T>(limit: OperationLimit | null, attempt: () => Promise<T>): Promise<T> {
    if (!this.enabled) return attempt();
    return this.firstRequest.run(() => {
      if (this.shared) return this.shared.take(limit, this.closing.signal).then(attempt);
      const operation = limit ? this.operation(limit) : null;
      const inProject = () => this.project!.schedule(() => this.spaced(operation?.spacer ?? null, attempt));
      return operation ? operation.limiter.schedule(inProject) : inProject();
    });
  }

  /** Waits for the operation's turn, then the project's, and sends at once: both spacings count from here. */
  private async spaced<T>(operationSpacer: Spacer | null, attempt: () => Promise<T>): Promise<T> {
    const leaveOperation = operationSpacer ? await operationSpacer.turn(this.closing.signal) : null;
    const leave = await this.projectSpacer!.turn(this.closing.signal);
    leave();
    leaveOperation?.();
    if (this.closing.signal.aborted) throw new Error('the tracker client is closing: the request was not sent');
    return attempt();
  }

  /** A 429: the shared budget makes every sender of the project wait and shrinks for a while. */
  async penalize(retryAfterMs: number): Promise<void> {
    if (this.shared && this.enabled) await this.shared.penalize(retryAfterMs);
  }

  async stop(): Promise<void> {
    this.closing.abort();
    const all = [this.project, ...[...this.byOperation.values()].map((o) => o.limiter)].filter((l): l is Bottleneck => !!l);
    await Promise.all(all.map((l) => l.stop({ dropWaitingJobs: true }).catch(() => undefined)));
  }

  /** An operation of the Limits table: one call at a time, spaced by its limit. */
  private operation(limit: OperationLimit): { limiter: Bottleneck; spacer: Spacer } {
    let operation = this.byOperation.get(limit.key);
    if (!operation) {
      operation = { limiter: new Bottleneck({ maxConcurrent: 1 }), spacer: new Spacer(operationSpacingMs(limit)) };
      this.byOperation.set(limit.key, operation);
    }
    return operation;
  }
}

function projectLimiter(budget: RateLimitBudget): Bottleneck {
  if (!(budget.per_second > 0) || !(budget.per_hour > 0)) {
    throw new RangeError(`tracker rate_limit: per_second and per_hour must be positive, got ${JSON.stringify(budget)}`);
  }
  return new Bottleneck({
    reservoir: budget.per_hour,
    reservoirRefreshAmount: budget.per_hour,
    reservoirRefreshInterval: HOUR_MS,
  });
}
