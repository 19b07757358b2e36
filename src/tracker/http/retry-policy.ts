/**
 * When to try again and how long to wait. Network errors, timeouts, 429 and 5xx are
 * transient; any other 4xx (and an error inside a 2xx answer) is the request's fault.
 */

const MAX_BACKOFF_MS = 30_000;
/** A Retry-After beyond this is not waited for: the run should fail and be rescheduled. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Exponential backoff with "equal jitter": half fixed, half random, so clients spread out. */
export function backoffDelayMs(attempt: number, baseMs: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** `Retry-After` as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(header: unknown, now = Date.now()): number | null {
  if (typeof header !== 'string' || header.trim() === '') return null;
  const text = header.trim();
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
