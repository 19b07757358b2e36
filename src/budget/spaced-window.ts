import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Limiter } from './budget-limiters';

/**
 * Send times at least `spacingMs` apart for every process of the store, from a fixed-window limiter of
 * rate-limiter-flexible: the window (whole seconds, as Redis keeps them) holds `points` send times on a grid
 * `spacingMs` apart from its start, and the n-th point consumed in it is the n-th time of the grid. The next
 * window starts when this one has expired, no earlier, so its first time is one spacing or more after this one's
 * last: the spacing holds across windows and processes. That is what bounds a sliding window (the service's
 * second), which a plain fixed window of N points does not (2N at its edge).
 */
export class SpacedWindow {
  readonly points: number;
  readonly durationMs: number;
  private readonly limiter: Limiter;

  constructor(
    make: (points: number, duration: number) => Limiter,
    readonly spacingMs: number,
  ) {
    const seconds = windowSeconds(spacingMs);
    this.durationMs = seconds * 1000;
    this.points = Math.floor(this.durationMs / spacingMs);
    this.limiter = make(this.points, seconds);
  }

  /**
   * The next free send time of the grid for `key` (epoch ms, now or later). With `every` 2 only every second
   * time is used (a 429 halves the pace). A time already passed (this process came late) is skipped; when the
   * window is full, waits for the next one.
   */
  async next(key: string, signal: AbortSignal, every = 1): Promise<{ at: number; left: number }> {
    for (let take = 1; ; ) {
      if (signal.aborted) throw aborted();
      const asked = Date.now();
      const res = await consume(this.limiter, key, take);
      const now = Date.now();
      const n = res.consumedPoints; // the last of the `take` times counted is ours
      if (n > this.points) {
        take = 1;
        await sleep(Math.max(1, res.msBeforeNext), signal); // the window is full: the next one
        continue;
      }
      const at = now + res.msBeforeNext - this.durationMs + (n - 1) * this.spacingMs;
      // a time that had passed when we asked is skipped (sent now, it would crowd the next one's); one that
      // passed while the store answered is ours, sent at once: the margin of rate-spacing.ts covers a short delay
      const behind = asked - LATE_MS - at;
      if (behind <= 0 && (n - 1) % every === 0) return { at: Math.max(at, now), left: this.points - n };
      // skip the times already passed in one go, not one round trip each
      take = behind > 0 ? Math.ceil(behind / this.spacingMs) : 1;
    }
  }

  /** Nobody sends for `ms`: the window is blocked, the next one starts after. */
  async block(key: string, ms: number): Promise<void> {
    await this.limiter.block(key, Math.max(1, Math.ceil(ms / 1000)));
  }
}

/** A grid time passed by at most this much when asked for is still used: the margin of rate-spacing.ts covers it. */
const LATE_MS = 20;

/** The shortest window of whole seconds whose grid uses 90% of the rate or more (1 s for 10/s; 10 s for 1/s). */
function windowSeconds(spacingMs: number): number {
  for (let s = 1; s < 60; s++) if (Math.floor((s * 1000) / spacingMs) * spacingMs >= 0.9 * s * 1000) return s;
  return Math.max(1, Math.ceil(spacingMs / 1000));
}

/** consume() that answers the counter's state whether or not the points were within the limit; store errors throw. */
export async function consume(limiter: Limiter, key: string, points = 1): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key, points);
  } catch (error) {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  }
}

export function aborted(): Error {
  return new Error('the request budget wait was aborted: the client is closing');
}

/** Sleeps `ms`, ending early (without error) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
