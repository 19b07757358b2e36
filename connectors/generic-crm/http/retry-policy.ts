import { RetryDefinition } from '../definition/source-definition';

/** When to try a request again, and how long to wait first. */
export class RetryPolicy {
  readonly maxAttempts: number;
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(private readonly definition: RetryDefinition = {}) {
    this.maxAttempts = definition.max_attempts ?? 5;
    this.baseMs = definition.base_ms ?? 1000;
    this.maxMs = definition.max_ms ?? 60_000;
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
    if (status === 429) return 'HTTP 429 too many requests';
    if (status >= 500) return `HTTP ${status}`;
    return null;
  }

  /** Retry-After (seconds or an HTTP date) wins over exponential backoff; both capped at max_ms. */
  delayMs(attempt: number, retryAfter?: string): number {
    const fromHeader = parseRetryAfter(retryAfter);
    const backoff = this.baseMs * 2 ** (attempt - 1);
    return Math.min(fromHeader ?? backoff, this.maxMs);
  }
}

function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
