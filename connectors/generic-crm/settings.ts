import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IsOAuth2Complete, IsTokenWhereAuthNeedsIt } from './auth/token-required.validator';
import { availablePresets } from './definition/presets';
import { DiscoverDefinition } from './definition/discover-definition';
import { AuthDefinition, BaseUrlRewriteDefinition, DailyLimitDefinition, ErrorDefinition, KindRateLimitDefinition, RateBlockDefinition, RateLimitDefinition, RetryDefinition } from './definition/source-definition';
import { StagesDefinition } from './definition/stages-definition';
import { StreamsDefinition } from './definition/stream-definition';
import { IsStringRecord } from './definition/validators';
import { WriteBackDefinition } from './definition/write-back-definition';
import { LeadDeliveryDefinition } from './definition/lead-delivery-definition';

/** The YAML files in presets/ (a new file is a new preset, no code). */
export const PRESET_NAMES: readonly string[] = availablePresets();
export type PresetName = string;

/**
 * What a user writes under `settings:` of a generic-crm connection. With a preset, base_url, token and
 * status_map are enough; `streams` overrides parts of the preset (or defines every stream without one).
 */
export class GenericCrmSettings {
  @IsOptional() @IsIn(PRESET_NAMES) preset?: PresetName;
  /** the account's API root, e.g. https://example.amocrm.ru */
  @IsString() base_url: string;
  /** how a preset maps older forms of base_url onto the API root it targets (presets set it; rarely written by hand) */
  @IsOptional() @ValidateNested() @Type(() => BaseUrlRewriteDefinition) base_url_rewrite?: BaseUrlRewriteDefinition;
  /** the secret of the auth; required when the preset's (or the configured) auth sends one and auth.token is unset */
  @IsTokenWhereAuthNeedsIt() token?: string;
  @IsOptional() @ValidateNested() @Type(() => AuthDefinition) @IsOAuth2Complete() auth?: AuthDefinition;
  /** CRM stage id -> the service's status id; '*' for every other stage. Without it the CRM's ids are sent. */
  @IsOptional() @IsStringRecord() status_map?: Record<string, string>;
  /** the CRM custom field (name or id) holding the visit number */
  @IsOptional() @IsString() visit_field?: string = 'tracker';
  @IsOptional() @ValidateNested() @Type(() => StreamsDefinition) streams?: StreamsDefinition;
  @IsOptional() @ValidateNested() @Type(() => RateLimitDefinition) rate_limit?: RateLimitDefinition;
  /** limits of kinds of request besides rate_limit (a preset's `rate_limits.search`); checked when the session opens */
  @IsOptional() @IsObject() rate_limits?: Record<string, KindRateLimitDefinition>;
  @IsOptional() @ValidateNested() @Type(() => RetryDefinition) retry?: RetryDefinition;
  /** how the CRM answers while it blocks the address for too many requests (a preset's rule: amoCRM's 403) */
  @IsOptional() @ValidateNested() @Type(() => RateBlockDefinition) rate_block?: RateBlockDefinition;
  /** how the CRM answers once its daily quota is spent: never retried, the run fails at once (a preset's rule: HubSpot's, Pipedrive's) */
  @IsOptional() @ValidateNested() @Type(() => DailyLimitDefinition) daily_limit?: DailyLimitDefinition;
  /** error objects inside 2xx answers */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ErrorDefinition) errors?: ErrorDefinition[];
  /** default zone of the CRM's dates written without an offset */
  @IsOptional() @IsString() timezone?: string;
  /** older form of the deal stages for `statuses: register` (one request, id/name/type); without it they come from `discover` */
  @IsOptional() @ValidateNested() @Type(() => StagesDefinition) stages?: StagesDefinition;
  /** `false`: no product rows are read (the enrichments of feature `products` are skipped, no extra requests) */
  @IsOptional() @IsBoolean() products?: boolean;
  /** `false`: no stage history is read (the enrichments of feature `history`) */
  @IsOptional() @IsBoolean() history?: boolean;
  /** attribution written back into the deals (README "Write-back"); a preset supplies request and field_list */
  @IsOptional() @ValidateNested() @Type(() => WriteBackDefinition) write_back?: WriteBackDefinition;
  /** the service's proxy leads delivered as deals (README "Leads into the CRM"); a preset supplies the requests */
  @IsOptional() @ValidateNested() @Type(() => LeadDeliveryDefinition) lead_delivery?: LeadDeliveryDefinition;
  /** where the CRM lists pipelines, stages, fields and users (`cli discover`); a preset supplies it */
  @IsOptional() @ValidateNested() @Type(() => DiscoverDefinition) discover?: DiscoverDefinition;
  /** the CRM's webhooks: how its calls are verified and registered (a preset's `webhooks:`; see webhooks.ts) */
  @IsOptional() @IsObject() webhooks?: Record<string, unknown>;
}
