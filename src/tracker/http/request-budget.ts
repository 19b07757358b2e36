import type { OperationLimit } from './rate-limits';

/**
 * The project's request budget when it is shared beyond this client: by every daemon and CLI process that
 * sends to the same project (kept in Redis or the store, see src/budget/shared-request-budget.ts). The client stays
 * stateless: it only asks for a slot before each attempt and reports a 429.
 */
export interface RequestBudget {
  /**
   * Resolves when one request may be sent now: within the operation's limit of the Limits table (null: none),
   * the per-hour allowance and the per-second spacing. Rejects when `signal` aborts (the client is closing).
   */
  take(limit: OperationLimit | null, signal: AbortSignal): Promise<void>;
  /** The service answered 429: every sender waits `retryAfterMs`, and the allowance shrinks for a while. */
  penalize(retryAfterMs: number): Promise<void>;
}
