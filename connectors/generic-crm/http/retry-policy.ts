import { backoffDelayMs, Backoff, isRetryableStatus, parseResetAtMs, parseRetryAfterMs } from 'tracker-sync/connector';
import { RetryAnswerDefinition, RetryDefinition } from '../definition/source-definition';

/** The longest wait for a reset time an answer names, unless its rule says otherwise (Bitrix24's window is 10 minutes). */
export const DEFAULT_MAX_RESET_WAIT_MS = 600_000;

/** A source's `retry` settings over the shared policy (src/http/retry-policy.ts): attempts, waits, extra answers to retry. */
export class RetryPolicy {
  readonly maxAttempts: number;
  private readonly backoff: Backoff;

  constructor(private readonly definition: RetryDefinition = {}) {
    this.maxAttempts = definition.max_attempts ?? 5;
    this.backoff = { baseMs: definition.base_ms ?? 1000, maxMs: definition.max_ms ?? 60_000, jitter: false };
  }

  /** the `extra` rule this answer matches, if any */
  ruleFor(status: number, text: string): RetryAnswerDefinition | undefined {
    return (this.definition.extra ?? []).find(
      (rule) =>
        (rule.status === undefined || rule.status === status) &&
        (rule.body_contains === undefined || text.includes(rule.body_contains)) &&
        (rule.status !== undefined || rule.body_contains !== undefined),
    );
  }

  /** the paths of reset times to remember from successful answers */
  get resetPaths(): string[] {
    return (this.definition.extra ?? []).flatMap((rule) => (rule.reset_at_path ? [rule.reset_at_path] : []));
  }

  /** why this answer deserves another attempt, or null (a spent daily quota, `daily_limit`, is the requester's to stop before) */
  retryReason(status: number, text: string): string | null {
    const extra = this.ruleFor(status, text);
    if (extra) return `HTTP ${status}${extra.body_contains ? ` ${extra.body_contains}` : ''}`;
    if (!isRetryableStatus(status)) return null;
    return status === 429 ? 'HTTP 429 too many requests' : `HTTP ${status}`;
  }

  /** a rule's own attempts; never more than one where the caller allows one (a create is sent once) */
  attemptsFor(rule: RetryAnswerDefinition | undefined): number {
    return this.maxAttempts === 1 ? 1 : rule?.max_attempts ?? this.maxAttempts;
  }

  /**
   * A reset time the rule reads (until then, at most its max_wait_ms) wins; then what the answer's headers say:
   * `Retry-After` (seconds or an HTTP date) and the source's `reset_header` (seconds), the longer of the two; then
   * exponential backoff. The last two capped at max_ms. `headers` by lower-case name.
   */
  delayMs(attempt: number, headers?: Record<string, string | undefined>, reset?: { at: unknown; rule: RetryAnswerDefinition }): number {
    const untilReset = reset ? parseResetAtMs(reset.at, reset.rule.max_wait_ms ?? DEFAULT_MAX_RESET_WAIT_MS) : null;
    return untilReset ?? this.headerWaitMs(headers) ?? backoffDelayMs(attempt, this.backoff);
  }

  private headerWaitMs(headers: Record<string, string | undefined> = {}): number | null {
    const names = ['retry-after', ...(this.definition.reset_header ? [this.definition.reset_header.toLowerCase()] : [])];
    const waits = names.map((name) => parseRetryAfterMs(headers[name], this.backoff.maxMs)).filter((ms): ms is number => ms !== null);
    return waits.length > 0 ? Math.max(...waits) : null;
  }
}
