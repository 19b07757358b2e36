import axios, { AxiosResponse } from 'axios';
import { dailyQuotaMark, parseRetryAfterMs, sleep } from 'tracker-sync/connector';
import { Authenticator, OutgoingRequest } from '../auth/authenticator';
import { DailyLimitDefinition, ErrorDefinition, RateBlockDefinition } from '../definition/source-definition';
import { getPath } from '../records/paths';
import { Redactor } from './redactor';
import { RetryPolicy } from './retry-policy';
import { scheduleRequest, SourceLimits } from './source-limits';
import { AuthenticationError, DailyLimitError, excerpt, RateBlockError, SourceError } from './source-error';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** relative to base_url, or an absolute URL (next-page links) */
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * The request writes the records it names (a write-back batch, a lead's deal, contact or note): a 403 then
   * refuses those records (an archived deal, a deal the user may not edit), not the connection, unless the
   * CRM's answer names the credentials (a token without the scope).
   */
  recordWrite?: boolean;
}

export interface SourceAnswer {
  status: number;
  headers: Record<string, string>;
  /** parsed JSON; null for 204 or an empty body */
  body: unknown;
  /** the redacted URL, for messages */
  url: string;
  bytes: number;
}

export interface RequesterOptions {
  baseUrl: string;
  auth: Authenticator;
  limits: SourceLimits;
  retry: RetryPolicy;
  errors: ErrorDefinition[];
  /** the CRM's block after too many requests (amoCRM: 403 after 429) */
  rateBlock?: RateBlockDefinition;
  /** how the CRM answers once its daily quota is spent (HubSpot: 429 `policyName: DAILY`; Pipedrive: 429 with `x-daily-ratelimit-token-remaining: 0`) */
  dailyLimit?: DailyLimitDefinition;
  redactor: Redactor;
  /** 'connection amo, stream deals' */
  where: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Sends one request: rate-limited, retried, authenticated, its JSON parsed and checked for error objects. */
export class Requester {
  /** request path -> the reset times (retry `reset_at_path`) its last successful answer named */
  private readonly resets = new Map<string, Record<string, unknown>>();

  constructor(private readonly options: RequesterOptions) {}

  /** A stable text of the request (for the repeated-request guard). */
  describe(spec: RequestSpec): string {
    const url = this.buildUrl(spec);
    return `${spec.method} ${this.options.redactor.redact(url.toString())}${spec.body === undefined ? '' : ` ${JSON.stringify(spec.body)}`}`;
  }

  async send(spec: RequestSpec): Promise<SourceAnswer> {
    const { retry } = this.options;
    let reauthenticated = false;
    for (let attempt = 1; ; attempt++) {
      const request: OutgoingRequest = {
        method: spec.method,
        url: this.buildUrl(spec),
        headers: { Accept: 'application/json', ...(spec.headers ?? {}) },
        body: spec.body,
      };
      const where = () => `${this.options.where}, ${spec.method} ${this.options.redactor.redact(request.url.toString())}`;
      try {
        await this.options.auth.apply(request);
      } catch (error) {
        throw new AuthenticationError(where(), `authentication failed: ${this.options.redactor.redact((error as Error).message)}`);
      }
      let response: AxiosResponse<string>;
      try {
        response = await scheduleRequest(this.options.limits, request.url.pathname, () => this.transmit(request));
      } catch (error) {
        if (this.options.signal?.aborted) throw new SourceError(where(), 'aborted');
        const reason = `network error ${networkCode(error)}`;
        if (attempt < retry.maxAttempts) {
          await sleep(retry.delayMs(attempt), this.options.signal);
          continue;
        }
        throw new SourceError(where(), `${reason} (gave up after ${attempt} attempts)`);
      }
      const text = typeof response.data === 'string' ? response.data : String(response.data ?? '');
      if (response.status === 401 && !reauthenticated && this.options.auth.invalidate && (await this.options.auth.invalidate())) {
        reauthenticated = true;
        continue;
      }
      const block = this.rateBlock(response.status, header(response, 'retry-after'));
      if (block) throw new RateBlockError(where(), `${block}: HTTP ${response.status}: ${this.options.redactor.redact(excerpt(text))}`, response.status, false, jsonOrUndefined(text));
      const headers = flatHeaders(response);
      const daily = this.options.dailyLimit;
      if (daily && dailyQuotaMark({ status: response.status, headers, body: text }, daily.answers)) {
        const answer = `HTTP ${response.status}: ${this.options.redactor.redact(excerpt(text))}`;
        throw new DailyLimitError(where(), `${dailyQuotaSpent(daily.resets)} (${answer})`, response.status, false, jsonOrUndefined(text));
      }
      const retryReason = retry.retryReason(response.status, text);
      const rule = retryReason ? retry.ruleFor(response.status, text) : undefined;
      if (retryReason && attempt < retry.attemptsFor(rule)) {
        const reset = rule?.reset_at_path
          ? { rule, at: getPath(jsonOrUndefined(text), rule.reset_at_path) ?? this.resets.get(spec.path)?.[rule.reset_at_path] }
          : undefined;
        await sleep(retry.delayMs(attempt, headers, reset), this.options.signal);
        continue;
      }
      if (retryReason || response.status >= 400) {
        const gaveUp = retryReason ? ` (gave up after ${attempt} attempts)` : '';
        const refused = isCredentialRefusal(response.status, text, spec.recordWrite) ? `${CREDENTIALS_REFUSED}: ` : '';
        const answer = `HTTP ${response.status}${gaveUp}: ${this.options.redactor.redact(excerpt(text))}`;
        const reason = isRouteGone(response.status) ? `${this.notServed(spec.method, request.url)} (${answer})` : `${refused}${answer}`;
        throw new SourceError(where(), reason, response.status, !!refused, jsonOrUndefined(text));
      }
      const body = this.parse(text, response.status, where);
      this.checkErrorObject(body, response.status, where);
      this.rememberResets(spec.path, body);
      return { status: response.status, headers, body, url: where(), bytes: text.length };
    }
  }

  /** "For the first retry, refer to operating_reset_at from the last successful response" (Bitrix24's limits page) */
  private rememberResets(path: string, body: unknown): void {
    const paths = this.options.retry.resetPaths;
    if (paths.length === 0) return;
    const found = Object.fromEntries(paths.map((resetPath) => [resetPath, getPath(body, resetPath)]).filter(([, value]) => value !== undefined));
    if (Object.keys(found).length) this.resets.set(path, found);
  }

  /**
   * A 429 is remembered for the session; the rate block's status soon after one is the CRM blocking the address
   * (amoCRM), named with the wait: never refused credentials.
   */
  private rateBlock(status: number, retryAfter: string | undefined): string | null {
    const rule = this.options.rateBlock;
    const limits = this.options.limits;
    if (status === (rule?.after ?? 429)) limits.lastRateRefusal = { at: Date.now(), status };
    if (!rule || status !== rule.status || !limits.lastRateRefusal) return null;
    const since = Date.now() - limits.lastRateRefusal.at;
    if (since > (rule.within_seconds ?? 60) * 1000) return null;
    const waitMs = parseRetryAfterMs(retryAfter, 24 * 3_600_000) ?? (rule.wait_seconds ?? 0) * 1000;
    const wait = waitMs > 0 ? `wait ${Math.ceil(waitMs / 1000)} s before the next run` : 'wait before the next run';
    const what = rule.message ? ` (${rule.message})` : '';
    return `rate block: the CRM blocked the address after too many requests (HTTP ${limits.lastRateRefusal.status} ${Math.round(since / 1000)} s before)${what}; ${wait}. Not the credentials`;
  }

  private transmit(request: OutgoingRequest): Promise<AxiosResponse<string>> {
    const hasBody = request.body !== undefined && request.method !== 'GET';
    return axios.request<string>({
      method: request.method,
      url: request.url.toString(),
      headers: hasBody ? { 'Content-Type': 'application/json', ...request.headers } : request.headers,
      data: hasBody ? JSON.stringify(request.body) : undefined,
      // We parse ourselves: a page cut in the middle must become a clear error, not a string.
      responseType: 'text',
      transformResponse: (data: string) => data,
      validateStatus: () => true,
      timeout: this.options.timeoutMs ?? 60_000,
      httpAgent: this.options.limits.httpAgent,
      httpsAgent: this.options.limits.httpsAgent,
      signal: this.options.signal,
      maxRedirects: 5,
    });
  }

  /** A 404 or 410 on a route: most often a CRM that dropped the API version the preset (or the config) targets. */
  private notServed(method: string, url: URL): string {
    return `the CRM does not serve \`${method} ${this.options.redactor.redact(url.pathname)}\`: the preset may target an API version it no longer has`;
  }

  private buildUrl(spec: RequestSpec): URL {
    const url = /^https?:\/\//i.test(spec.path)
      ? new URL(spec.path)
      : new URL(`${this.options.baseUrl.replace(/\/+$/, '')}/${spec.path.replace(/^\/+/, '')}`);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
    return url;
  }

  private parse(text: string, status: number, where: () => string): unknown {
    if (status === 204 || text.trim() === '') return null;
    try {
      return JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new SourceError(
        where(),
        `HTTP ${status} answer is not valid JSON (${detail}; ${text.length} bytes, ends with ${JSON.stringify(this.options.redactor.redact(text.slice(-40)))}) — the page was cut or is not JSON`,
      );
    }
  }

  private checkErrorObject(body: unknown, status: number, where: () => string): void {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    for (const rule of this.options.errors) {
      const value = getPath(body, rule.path);
      const failed =
        rule.equals !== undefined ? value !== undefined && String(value) === String(rule.equals) : isSet(value);
      if (!failed) continue;
      const message = rule.message_path ? getPath(body, rule.message_path) : undefined;
      const text = [JSON.stringify(value), message === undefined ? '' : String(message)].filter(Boolean).join(': ');
      const refused = AUTH_ERROR_CODE.test(String(value)) ? `${CREDENTIALS_REFUSED}: ` : '';
      throw new SourceError(where(), `${refused}HTTP ${status} answer carries an error object (${rule.path}=${this.options.redactor.redact(text)})`, status, !!refused, body);
    }
  }
}

/**
 * A CRM refusing the connection's token or key fails the run (never a record): the message says so before
 * the CRM's own answer. 401 (after one fresh OAuth2 token); 403 to a read; 403 to a record's write only when
 * the answer names the credentials (a missing scope: HubSpot `MISSING_SCOPES`, Pipedrive "Scope and URL
 * mismatch"), else it is that record's refusal (Pipedrive refuses the update of an archived deal); or an error
 * object whose code names the credentials (Bitrix24 `expired_token`, `invalid_token`, `NO_AUTH_FOUND`,
 * `INVALID_CREDENTIALS`...).
 */
const CREDENTIALS_REFUSED = "the CRM refused the connection's credentials (settings.token / settings.auth)";
const AUTH_ERROR_CODE = /token|credential|auth|unauthori[sz]ed|forbidden|access.?denied/i;
/** a 403 answer to a write that is about the token, not the record */
const NAMES_CREDENTIALS = /token|credential|scope|api.?key|unauthori[sz]ed|authenticat/i;

/**
 * An answer of a spent daily quota (the source's `daily_limit`) fails the run at once: retrying it for minutes would
 * not lift it, and a CRM may block an address that keeps asking (Pipedrive answers 403 to traffic that ignores its 429s).
 */
function dailyQuotaSpent(resets = "usually at midnight in the account's time zone"): string {
  return `the CRM's daily request limit is spent: the run stops without retrying; it can go again once the CRM resets the limit (${resets})`;
}

function isRouteGone(status: number): boolean {
  return status === 404 || status === 410;
}

function isCredentialRefusal(status: number, answer: string, recordWrite = false): boolean {
  if (status === 401) return true;
  if (status !== 403) return false;
  return !recordWrite || NAMES_CREDENTIALS.test(answer);
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== '';
}

function header(response: AxiosResponse, name: string): string | undefined {
  const value = (response.headers as Record<string, unknown>)[name];
  return value === undefined ? undefined : String(value);
}

function flatHeaders(response: AxiosResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(response.headers ?? {})) headers[key.toLowerCase()] = String(value);
  return headers;
}

function networkCode(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ?? e.message ?? String(error);
}
