import { operationSpacingMs, spacingMs } from '../http/rate-spacing';
import type { OperationLimit, RateLimitBudget } from '../tracker/http/rate-limits';
import type { RequestBudget } from '../tracker/http/request-budget';
import { BudgetLimiters, Limiter, limiterKey } from './budget-limiters';
import { aborted, consume, sleep, SpacedWindow } from './spaced-window';
import type { RateLimiterRes } from 'rate-limiter-flexible';

const HOUR_S = 3600;
/** after a 429 the per-second spacing doubles for this long, for every process of the project */
const SHRINK_S = 60;
/** a send time this process wakes for later than this is given up for a later one (the spacing's margin covers less) */
const LATE_WAKE_MS = 20;
/** how long this process trusts what it last read of the shrink */
const SHRINK_READ_MS = 1_000;
/** a refused hour is asked again after at most this long (so a stop or a freed hour is seen soon) */
const MAX_HOUR_PAUSE_MS = 5_000;

/** What /metrics and the status page show of the budget, as this process last saw it. */
export interface RequestBudgetStats {
  /** requests waiting for the budget in this process now, and since when the oldest waits (epoch ms) */
  waiting: number;
  waitingSince: number | null;
  /** total time requests of this process spent waiting for the budget, the waits still going included */
  waitSecondsTotal: number;
  /** requests left in the hour; send times free in the coming second */
  remaining: { hour: number; second: number };
}

/** The budget's key: one per project of one service. */
export function budgetScope(baseUrl: string, project: string | undefined): string {
  return `${project ?? ''}@${baseUrl.replace(/\/+$/, '')}`.slice(0, 300);
}

/**
 * The project's request budget drawn by every process that shares the limiters' store (BudgetLimiters: Redis in
 * cluster mode, else the daemon's store): `tracker.rate_limit` is the share of the whole installation, whatever
 * the number of processes. Two rate-limiter-flexible limiters, and a request takes from both:
 * - per hour: a fixed window of `per_hour` points kept in the store, so a restart does not reset it;
 * - per second: send times `1000 / per_second` apart plus the margin of src/http/rate-spacing.ts (SpacedWindow),
 *   so the service's sliding second is respected across processes;
 * - the Limits table's operations: their own spaced send times.
 * A 429 blocks the second's window for the Retry-After and halves the pace for a minute, for every process.
 * Nothing is held: a process that dies leaves only counters that expire.
 */
export class SharedRequestBudget implements RequestBudget {
  private readonly key: string;
  private readonly hour: Limiter;
  private readonly second: SpacedWindow;
  private readonly shrink: Limiter;
  private readonly operations = new Map<string, SpacedWindow>();
  private blockedUntil = 0;
  private shrinkRead = { factor: 1, at: 0 };
  private lastHour: { res: RateLimiterRes; at: number } | null = null;
  private lastSecond = { left: 0, until: 0 };
  private readonly waitingSince = new Map<object, number>();
  private waitedMs = 0;
  private readonly stopping = new AbortController();

  constructor(
    private readonly limiters: BudgetLimiters,
    readonly scope: string,
    readonly limits: RateLimitBudget,
  ) {
    if (!(limits.per_second > 0) || !(limits.per_hour > 0)) {
      throw new RangeError(`tracker rate_limit: per_second and per_hour must be positive, got ${JSON.stringify(limits)}`);
    }
    this.key = limiterKey(scope);
    this.hour = limiters.limiter('hour', limits.per_hour, HOUR_S);
    this.second = new SpacedWindow((points, duration) => limiters.limiter('second', points, duration), spacingMs(limits.per_second, 1000));
    this.shrink = limiters.limiter('shrink', 1, SHRINK_S);
  }

  async take(limit: OperationLimit | null, clientSignal: AbortSignal): Promise<void> {
    const signal = AbortSignal.any([clientSignal, this.stopping.signal]);
    const token = {};
    this.waitingSince.set(token, Date.now());
    try {
      if (limit) await sleep((await this.operation(limit).next(this.key, signal)).at - Date.now(), signal);
      await this.takeHour(signal);
      for (;;) {
        const slot = await this.second.next(this.key, signal, await this.shrinkFactor());
        this.lastSecond = { left: slot.left, until: slot.at + 1000 };
        await sleep(slot.at - Date.now(), signal);
        // this process woke late (a busy event loop): sent now, the request would crowd the next times of the grid
        // into one sliding second (21 at 20/s, seen under a loaded CI); it takes a later time instead
        if (!signal.aborted && Date.now() - slot.at > LATE_WAKE_MS) continue;
        if (signal.aborted || slot.at >= this.blockedUntil) break; // else a 429 came meanwhile: take a later time
      }
    } finally {
      this.waitedMs += Date.now() - this.waitingSince.get(token)!;
      this.waitingSince.delete(token);
    }
    if (signal.aborted) throw aborted();
  }

  /**
   * The process is stopping: requests still waiting for the budget give up now (their batches were not sent, so
   * the runs end at their last checkpoint) instead of holding the shutdown until the budget frees.
   */
  stop(): void {
    this.stopping.abort();
  }

  async penalize(retryAfterMs: number): Promise<void> {
    const now = Date.now();
    this.blockedUntil = Math.max(this.blockedUntil, now + retryAfterMs);
    this.shrinkRead = { factor: 2, at: now };
    await this.second.block(this.key, retryAfterMs);
    await this.shrink.set(this.key, 1, SHRINK_S);
  }

  stats(now = Date.now()): RequestBudgetStats {
    const since = [...this.waitingSince.values()];
    const h = this.lastHour;
    const hourLeft = h && now < h.at + h.res.msBeforeNext ? this.limits.per_hour - h.res.consumedPoints : this.limits.per_hour;
    const secondLeft = now < this.lastSecond.until ? this.lastSecond.left : this.second.points;
    return {
      waiting: since.length,
      waitingSince: since.length ? Math.min(...since) : null,
      waitSecondsTotal: (this.waitedMs + since.reduce((sum, at) => sum + (now - at), 0)) / 1000,
      remaining: {
        hour: Math.max(0, Math.floor(hourLeft)),
        second: Math.max(0, Math.min(this.limits.per_second, secondLeft)),
      },
    };
  }

  /** One request of the hour; when it is spent, waits for the window to end (asking again every few seconds). */
  private async takeHour(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) throw aborted();
      const res = await consume(this.hour, this.key);
      this.lastHour = { res, at: Date.now() };
      if (res.consumedPoints <= this.limits.per_hour) return;
      // jitter, so the processes waiting for the next hour do not ask all at once
      await sleep(Math.min(MAX_HOUR_PAUSE_MS, res.msBeforeNext) * (0.8 + Math.random() * 0.4), signal);
    }
  }

  /** 2 while a 429's shrink lasts (seen by any process), else 1. */
  private async shrinkFactor(): Promise<number> {
    const now = Date.now();
    if (now - this.shrinkRead.at >= SHRINK_READ_MS) this.shrinkRead = { factor: (await this.shrink.get(this.key)) ? 2 : 1, at: now };
    return this.shrinkRead.factor;
  }

  /** An operation of the Limits table: its own spaced send times, shared by the processes. */
  private operation(limit: OperationLimit): SpacedWindow {
    let window = this.operations.get(limit.key);
    if (!window) {
      window = new SpacedWindow((points, duration) => this.limiters.limiter(`op:${limit.key}`, points, duration), operationSpacingMs(limit));
      this.operations.set(limit.key, window);
    }
    return window;
  }
}
