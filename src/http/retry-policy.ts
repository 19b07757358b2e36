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
 * How an API marks an answer of a spent daily quota: a refusal no wait of seconds or minutes lifts (it lasts until
 * the API's day ends), so the caller fails at once instead of retrying it. The answer's status (default 429) and one
 * sign in it: a header's value (Pipedrive: `x-daily-ratelimit-token-remaining: 0`), a value at a dotted path of its
 * JSON body (HubSpot: `"policyName": "DAILY"`) or a text in its body. A mark with no sign marks nothing.
 */
export interface DailyQuotaMark {
  /** the answer's HTTP status; default 429 */
  status?: number;
  /** a header (any case) whose value equals `equals` */
  header?: string;
  /** a dotted path of the JSON body whose value equals `equals` */
  path?: string;
  /** the header's or the path's value (compared as text) */
  equals?: unknown;
  /** a text the body contains */
  body_contains?: string;
}

/** What a mark is looked for in: the status, the headers (by name, any case) and the body's text. */
export interface QuotaAnswer {
  status: number;
  headers?: Record<string, unknown>;
  body: string;
}

/** The first of `marks` the answer carries (the daily quota is spent), or undefined. */
export function dailyQuotaMark(answer: QuotaAnswer, marks: readonly DailyQuotaMark[]): DailyQuotaMark | undefined {
  let json: { parsed: unknown } | undefined;
  const body = () => (json ??= { parsed: parseJson(answer.body) }).parsed;
  return marks.find((mark) => {
    if (answer.status !== (mark.status ?? 429)) return false;
    if (mark.header !== undefined) return sameText(headerValue(answer.headers, mark.header), mark.equals);
    if (mark.path !== undefined) return sameText(valueAt(body(), mark.path), mark.equals);
    if (mark.body_contains !== undefined) return answer.body.includes(mark.body_contains);
    return false;
  });
}

/**
 * HubSpot's case of `dailyQuotaMark` (a 429 whose JSON body has `"policyName": "DAILY"`, reset at the account's
 * midnight), kept for plugins; the generic CRM connector reads each CRM's marks from its preset (`daily_limit`).
 */
export function isDailyQuotaSpent(status: number, body: string): boolean {
  return dailyQuotaMark({ status, body }, [{ path: 'policyName', equals: 'DAILY' }]) !== undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): unknown {
  const wanted = name.toLowerCase();
  const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted);
  return found?.[1];
}

function valueAt(value: unknown, path: string): unknown {
  let at = value;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function sameText(value: unknown, expected: unknown): boolean {
  if (value === undefined || value === null || expected === undefined || expected === null) return false;
  return String(value).trim() === String(expected).trim();
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
