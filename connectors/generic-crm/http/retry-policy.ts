import { backoffDelayMs, Backoff, isDailyQuotaSpent, isRetryableStatus, parseRetryAfterMs } from 'tracker-sync/connector';
import { RetryDefinition } from '../definition/source-definition';

/** A source's `retry` settings over the shared policy (src/http/retry-policy.ts): attempts, waits, extra answers to retry. */
export class RetryPolicy {
  readonly maxAttempts: number;
  private readonly backoff: Backoff;

  constructor(private readonly definition: RetryDefinition = {}) {
    this.maxAttempts = definition.max_attempts ?? 5;
    this.backoff = { baseMs: definition.base_ms ?? 1000, maxMs: definition.max_ms ?? 60_000, jitter: false };
  }

  /** why this answer deserves another attempt, or null */
  retryReason(status: number, text: string): string | null {
    const extra = (this.definition.extra ?? []).find(
      (rule) =>
        (rule.status === undefined || rule.status === status) &&
        (rule.body_contains === undefined || text.includes(rule.body_contains)) &&
        (rule.status !== undefined || rule.body_contains !== undefined),
    );
    if (extra) return `HTTP ${status}${extra.body_contains ? ` ${extra.body_contains}` : ''}`;
    if (!isRetryableStatus(status) || isDailyQuotaSpent(status, text)) return null;
    return status === 429 ? 'HTTP 429 too many requests' : `HTTP ${status}`;
  }

  /** Retry-After (seconds or an HTTP date) wins over exponential backoff; both capped at max_ms. */
  delayMs(attempt: number, retryAfter?: string): number {
    return parseRetryAfterMs(retryAfter, this.backoff.maxMs) ?? backoffDelayMs(attempt, this.backoff);
  }
}
