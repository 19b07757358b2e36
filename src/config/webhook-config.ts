/**
 * A connection's `webhook:` section: the CRM calls POST /hooks/{connection} when a deal changes, and the
 * connection's next incremental run starts within `debounce` of the last call of a burst. `verify` says how a
 * call proves it comes from the CRM, for a CRM without a preset (a preset names its own way).
 */
import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsIn, IsOptional, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { DURATION, durationMs } from './alert-config';
import { Doc } from './config-doc';
import { EmptyAsAbsent, ToLowerCase, ToText } from './config-transforms';
import { Mapping, Matches, OneOf, Text } from './config-validators';

export const WEBHOOK_VERIFY_TYPES = ['hmac', 'basic', 'path_secret', 'header_secret'] as const;
export const WEBHOOK_ALGORITHMS = ['sha256', 'sha1'] as const;
export const WEBHOOK_ENCODINGS = ['hex', 'base64'] as const;
/** The longest debounce: a webhook that waits longer than this is no quicker than polling. */
export const MAX_DEBOUNCE_MS = 10 * 60_000;

const DURATION_MESSAGE = 'must be a duration such as 500ms, 3s or 1m';

export class WebhookVerifyConfig {
  @Doc('How a call proves it comes from the CRM: `hmac` (a signature header), `basic` (HTTP Basic auth, the password is `secret`), `path_secret` (POST /hooks/{connection}/{secret}) or `header_secret` (a header holds `secret`).', {
    type: '"hmac" | "basic" | "path_secret" | "header_secret"',
  })
  @ToLowerCase() @OneOf(WEBHOOK_VERIFY_TYPES)
  type: (typeof WEBHOOK_VERIFY_TYPES)[number];

  @Doc('hmac: the header carrying the signature; header_secret: the header carrying the secret.', { type: 'string' })
  @ValidateIf((v: WebhookVerifyConfig) => v.type === 'hmac' || v.type === 'header_secret' || v.header !== undefined)
  @EmptyAsAbsent() @ToText() @Text()
  header?: string;

  @Doc('hmac: the hash of the HMAC.', { type: '"sha256" | "sha1"' })
  @ToLowerCase() @OneOf(WEBHOOK_ALGORITHMS)
  algorithm: (typeof WEBHOOK_ALGORITHMS)[number] = 'sha256';

  @Doc('hmac: how the signature is written in the header.', { type: '"hex" | "base64"' })
  @ToLowerCase() @OneOf(WEBHOOK_ENCODINGS)
  encoding: (typeof WEBHOOK_ENCODINGS)[number] = 'hex';

  @Doc('hmac: what is signed: `body` (the raw body), or a template of `{{method}}`, `{{uri}}` (server.public_url + path), `{{body}}` and `{{header.<name>}}`.', { type: 'string' })
  @Text()
  signed = 'body';

  @Doc('hmac: text before the signature in the header, e.g. `sha256=`.', { type: 'string' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  prefix?: string;

  @Doc('hmac: a header holding the call\'s time (Unix milliseconds, or seconds); calls older or newer than `max_age` are refused.', { type: 'string' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  timestamp_header?: string;

  @Doc('hmac with timestamp_header: how far the call\'s time may be from now.', { type: 'duration' })
  @ValidateIf((v: WebhookVerifyConfig) => v.max_age !== undefined) @Matches(DURATION, DURATION_MESSAGE)
  max_age = '5m';
}

export class WebhookConfig {
  @Doc('The shared secret the CRM proves it knows (HubSpot: the app\'s client secret; Pipedrive: the Basic auth password; Bitrix24: the application token; amoCRM and path_secret: the last part of the URL). Never logged nor shown.', {
    type: 'string (secret)',
  })
  @ToText() @Text()
  secret: string;

  @Doc('A burst of calls makes one run, this long after the last call (at most 10m).', { type: 'duration' })
  @ToText() @DurationUpTo(MAX_DEBOUNCE_MS)
  debounce = '3s';

  @Doc('The signature versions a call may carry, for a CRM that signs several ways (HubSpot: `v3`, the default; `v1` or `v2` for apps that send them, e.g. CRM object subscriptions). v1 and v2 sign no timestamp: a call caught once can be replayed at any time, so opt in only when the app sends no v3.', {
    type: 'string[]',
  })
  @IsOptional() @IsArray() @ArrayNotEmpty() @IsIn(['v1', 'v2', 'v3'], { each: true })
  signature_versions?: string[];

  @Doc('How calls are verified, for a CRM without a preset (a preset verifies as its CRM signs).', { type: 'mapping', nested: () => WebhookVerifyConfig })
  @IsOptional() @Mapping() @ValidateNested() @Type(() => WebhookVerifyConfig)
  verify?: WebhookVerifyConfig;
}

/** A duration (500ms, 3s, 1m) no longer than `maxMs`. */
function DurationUpTo(maxMs: number): PropertyDecorator {
  const within = (value: unknown) => typeof value === 'string' && DURATION.test(value) && durationMs(value) <= maxMs;
  return ValidateBy({ name: 'durationUpTo', validator: { validate: within, defaultMessage: () => `${DURATION_MESSAGE}, at most 10m` } });
}
