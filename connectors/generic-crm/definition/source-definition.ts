import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsIn, IsInt, IsNumber, IsOptional, IsPositive, IsString, Min, ValidateNested } from 'class-validator';
import type { DailyQuotaMark } from 'tracker-sync/connector';
import { NamesOneSignEach } from './validators';

/** Source-wide parts shared by the streams: auth, rate limit, retries, errors in 200 answers. */

export const AUTH_TYPES = ['none', 'bearer', 'api_key_header', 'basic', 'query_param', 'webhook_path', 'oauth2'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const OAUTH2_KEYS = ['client_id', 'client_secret', 'refresh_token', 'scope', 'redirect_uri'] as const;

export class AuthDefinition {
  @IsOptional() @IsIn(AUTH_TYPES) type?: AuthType;
  /** the secret; defaults to settings.token */
  @IsOptional() @IsString() token?: string;
  /** api_key_header: header name; query_param: parameter name */
  @IsOptional() @IsString() header?: string;
  @IsOptional() @IsString() param?: string;
  /** api_key_header: text before the key, e.g. 'Token ' */
  @IsOptional() @IsString() prefix?: string;
  /** basic */
  @IsOptional() @IsString() username?: string;
  @IsOptional() @IsString() password?: string;
  /** oauth2: client_credentials, or refresh_token when a refresh_token is given */
  @IsOptional() @IsString() token_url?: string;
  @IsOptional() @IsString() client_id?: string;
  @IsOptional() @IsString() client_secret?: string;
  @IsOptional() @IsString() refresh_token?: string;
  @IsOptional() @IsString() scope?: string;
  /** oauth2: the integration's redirect URI, sent with every token request (amoCRM refuses a refresh without it) */
  @IsOptional() @IsString() redirect_uri?: string;
  /** oauth2: keys the CRM's token endpoint requires (a preset's rule: amoCRM's `redirect_uri`) */
  @IsOptional() @IsArray() @IsIn(OAUTH2_KEYS, { each: true }) oauth2_requires?: (typeof OAUTH2_KEYS)[number][];
}

export class RateLimitDefinition {
  @IsNumber() @IsPositive() requests: number;
  @IsNumber() @IsPositive() per_seconds: number;
}

/**
 * A limit of one kind of request besides the general one (HubSpot's search endpoints: 4 a second per token):
 * `rate_limits: { search: { per_second: 4, path: '/search$' } }`. `path` is a JavaScript regular expression
 * of the request paths of the kind; such a request waits for both limiters.
 */
export interface KindRateLimitDefinition {
  per_second: number;
  path: string;
}

/**
 * A CRM that blocks the address after too many requests and then answers with a status that otherwise means
 * "forbidden" (amoCRM: 403 after its 429s): such an answer soon after a rate refusal is named as the block, with
 * the wait, never as refused credentials.
 */
export class RateBlockDefinition {
  /** the status of the blocked answers */
  @IsInt() status: number;
  /** the rate refusal that comes first (default 429) */
  @IsOptional() @IsInt() after?: number;
  /** how soon after it a `status` answer is the block (default 60) */
  @IsOptional() @IsInt() @Min(1) within_seconds?: number;
  /** how long to wait when the answer gives no Retry-After */
  @IsOptional() @IsInt() @Min(1) wait_seconds?: number;
  /** what the CRM documents, for the message */
  @IsOptional() @IsString() message?: string;
}

export class RetryAnswerDefinition {
  @IsOptional() @IsInt() status?: number;
  @IsOptional() @IsString() body_contains?: string;
  /**
   * dotted path of the Unix time (seconds) when the limit lifts, read in this answer or else in the last successful
   * answer of the same path (Bitrix24's OPERATION_TIME_LIMIT: `time.operating_reset_at`): the retry waits until then
   */
  @IsOptional() @IsString() reset_at_path?: string;
  /** the longest wait for that time (default 600000: 10 minutes) */
  @IsOptional() @IsInt() @Min(0) max_wait_ms?: number;
  /** attempts for this answer (default retry.max_attempts) */
  @IsOptional() @IsInt() @Min(1) max_attempts?: number;
}

export class RetryDefinition {
  @IsOptional() @IsInt() @Min(1) max_attempts?: number;
  @IsOptional() @IsInt() @Min(0) base_ms?: number;
  @IsOptional() @IsInt() @Min(0) max_ms?: number;
  /**
   * a header holding the seconds until the CRM's rate limit lifts (Pipedrive's `x-ratelimit-reset`): a retried
   * answer waits for it as for `Retry-After`, the longer of the two when both are there (capped at max_ms)
   */
  @IsOptional() @IsString() reset_header?: string;
  /** answers retried besides network errors, 429 and 5xx (e.g. Bitrix24's QUERY_LIMIT_EXCEEDED) */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => RetryAnswerDefinition) extra?: RetryAnswerDefinition[];
  @IsOptional() @IsInt() @Min(1) timeout_ms?: number;
}

/**
 * One answer that says the CRM's daily quota is spent (src/http/retry-policy.ts, `DailyQuotaMark`): its status
 * (default 429) and one sign, `header` with `equals`, `path` (of the JSON body) with `equals`, or `body_contains`.
 */
export class DailyLimitAnswerDefinition implements DailyQuotaMark {
  @IsOptional() @IsInt() status?: number;
  @IsOptional() @IsString() header?: string;
  @IsOptional() @IsString() path?: string;
  @IsOptional() equals?: unknown;
  @IsOptional() @IsString() body_contains?: string;
}

/**
 * A CRM whose day's quota, once spent, refuses every request until the CRM's day ends (HubSpot's daily limit,
 * Pipedrive's daily token budget): such an answer is never retried, the run fails at once saying so. A preset's rule.
 */
export class DailyLimitDefinition {
  /** how the CRM marks it (any one of them) */
  @IsArray() @ArrayNotEmpty() @ValidateNested({ each: true }) @Type(() => DailyLimitAnswerDefinition) @NamesOneSignEach() answers: DailyLimitAnswerDefinition[];
  /** when the CRM lifts it, for the message (default: "usually at midnight in the account's time zone") */
  @IsOptional() @IsString() resets?: string;
}

/** An error object inside a 2xx answer: present at `path` (or equal to `equals`) means failure. */
export class ErrorDefinition {
  @IsString() path: string;
  @IsOptional() equals?: unknown;
  @IsOptional() @IsString() message_path?: string;
}

/**
 * A preset whose CRM moved its API root rewrites the base_url users wrote for an older version (Pipedrive:
 * `.../api/v1` or `.../v1` become `.../api`, where both API versions live). JavaScript regular expression and
 * replacement (`$1`); a base_url that does not match is used as written.
 */
export class BaseUrlRewriteDefinition {
  @IsString() pattern: string;
  @IsString() replacement: string;
}
