/**
 * When to try an HTTP request again and how long to wait first: the one policy of the tracker client and
 * the CRM connectors. 429 and 5xx are transient; any other 4xx is the request's fault. (Network errors are
 * judged by the callers: only they know whether a request may have landed.)
 * A pure leaf: it imports nothing, so both the tracker client and the connectors may use it.
 */

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * A 429 that says a daily quota is spent (HubSpot's body names its policy: `"policyName": "DAILY"`, reset at the
 * account's midnight): no wait of seconds or minutes helps, so it is never retried and the caller fails at once.
 */
export function isDailyQuotaSpent(status: number, body: string): boolean {
  if (status !== 429) return false;
  try {
    const parsed = JSON.parse(body) as { policyName?: unknown } | null;
    return typeof parsed === 'object' && parsed !== null && parsed.policyName === 'DAILY';
  } catch {
    return false;
  }
}

export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** "equal jitter": half the wait fixed, half random, so clients that failed together spread out */
  jitter: boolean;
}

/** Exponential backoff: baseMs, then twice as long each attempt, capped at maxMs. */
export function backoffDelayMs(attempt: number, backoff: Backoff): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return backoff.jitter ? Math.round(ceiling / 2 + Math.random() * (ceiling / 2)) : ceiling;
}

/** `Retry-After` as seconds or an HTTP date, in ms (0 for a date past), capped at maxMs; null when absent or unreadable. */
export function parseRetryAfterMs(header: unknown, maxMs = Infinity, now = Date.now()): number | null {
  if (typeof header !== 'string' || header.trim() === '') return null;
  const text = header.trim();
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(maxMs, Math.max(0, Math.round(ms)));
}

/**
 * A reset time some APIs name in the body of a 429 instead of `Retry-After` (Bitrix24's `operating_reset_at`):
 * a Unix time in seconds (a number or its text), as ms from now, capped at maxMs; null when absent, unreadable
 * or already past (the limit did not lift: the caller backs off instead).
 */
export function parseResetAtMs(value: unknown, maxMs = Infinity, now = Date.now()): number | null {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(seconds)) return null;
  const ms = Math.ceil(seconds * 1000 - now);
  return ms > 0 ? Math.min(maxMs, ms) : null;
}

/** Waits `ms`; an abort ends the wait at once (the caller then sees `signal.aborted`). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    // the listener goes with the sleep: a run's signal outlives thousands of them (MaxListenersExceededWarning)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
