import { Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Min, ValidateNested,
} from 'class-validator';
import { IsMapping } from './validators';

/**
 * The declarative parts of one stream (after Airbyte's declarative CDK: requester, paginator,
 * record selector, incremental cursor, mapping). Every key is optional here because the same classes
 * validate a preset and a user's partial override; what a stream must have is checked when it is built.
 */

export class RequestDefinition {
  @IsOptional() @IsIn(['GET', 'POST']) method?: 'GET' | 'POST';
  /** relative to base_url; `{{...}}` templates allowed */
  @IsOptional() @IsString() path?: string;
  /** values are templates: `{{cursor}}`, `{{until}}`, `{{visit_field}}`, or `=JSONata` */
  @IsOptional() @IsObject() query?: Record<string, unknown>;
  @IsOptional() body?: unknown;
  @IsOptional() @IsObject() headers?: Record<string, string>;
}

export const PAGINATOR_TYPES = ['none', 'page_number', 'offset', 'cursor', 'next_url', 'link_header', 'keyset'] as const;
export type PaginatorType = (typeof PAGINATOR_TYPES)[number];

export class PaginatorDefinition {
  @IsOptional() @IsIn(PAGINATOR_TYPES) type?: PaginatorType;
  /** where page / offset / token parameters go; default: query for GET, body for POST; `none`: only `{{page.<param>}}` (enrichments) */
  @IsOptional() @IsIn(['query', 'body', 'none']) inject?: 'query' | 'body' | 'none';
  @IsOptional() @IsInt() @Min(1) page_size?: number;
  /** parameter carrying the page size (page_number, offset) */
  @IsOptional() @IsString() size_param?: string;
  /** page_number */
  @IsOptional() @IsString() page_param?: string;
  @IsOptional() @IsInt() start_page?: number;
  /** page_number: dotted path of the number of pages in the answer; the page with that number is the last */
  @IsOptional() @IsString() total_pages_path?: string;
  /** dotted path of the number of records the query matches (all pages), e.g. `total`: the run's progress in percent */
  @IsOptional() @IsString() total_path?: string;
  /** offset */
  @IsOptional() @IsString() offset_param?: string;
  /** cursor: dotted path of the next token in the body, and the parameter that sends it back */
  @IsOptional() @IsString() token_path?: string;
  @IsOptional() @IsString() token_param?: string;
  /** keyset: the field of the page's last record whose value goes into token_param (`id` into `filter[>id]`) */
  @IsOptional() @IsString() key_field?: string;
  /** next_url: dotted path of the next page's URL in the body */
  @IsOptional() @IsString() url_path?: string;
  /** a page shorter than page_size is the last one (page_number, offset, keyset) */
  @IsOptional() @IsBoolean() stop_on_short_page?: boolean;
  /**
   * Search endpoints that cap the reachable offset (HubSpot: 10,000): when the numeric token would reach it,
   * the read restarts with the cursor moved to the last record's updated_at (ids on the boundary deduplicated).
   */
  @IsOptional() @IsInt() @Min(1) reslice_at?: number;
  /**
   * A list sorted by modification time and paged by position (amoCRM's `page`, HubSpot's `after`, Bitrix24's
   * `start`): each next page is asked from the last record's updated_at instead (ids on the boundary deduplicated).
   * A record edited mid-read moves to the list's end and every record after it moves up one place: a read by
   * position never sees the one that slid over the page boundary, and the cursor passes it.
   */
  @IsOptional() @IsBoolean() reslice_each_page?: boolean;
}

export class IncrementalDefinition {
  /** source path of the record's modification time; default mapping of updated_at */
  @IsOptional() @IsString() field?: string;
  /** how the source writes it: unix | unix_ms | iso | a pattern such as 'YYYY-MM-DD HH:mm:ss' */
  @IsOptional() @IsString() format?: string;
  @IsOptional() @IsString() timezone?: string;
  /** how `{{cursor}}` is written into requests (default: format) */
  @IsOptional() @IsString() cursor_format?: string;
  @IsOptional() @IsString() cursor_timezone?: string;
  /** the source returns records in ascending modification order */
  @IsOptional() @IsBoolean() sorted?: boolean;
  /**
   * Each run also re-reads the records modified in this many days before the run (fingerprints drop the unchanged):
   * for changes the CRM does not reflect in the modification time (a product row, a stage history entry)
   */
  @IsOptional() @IsInt() @Min(1) recheck_days?: number;
}

export class DatesDefinition {
  @IsOptional() @IsString() format?: string;
  @IsOptional() @IsString() timezone?: string;
}

export class LabelsDefinition {
  @IsOptional() @ValidateNested() @Type(() => RequestDefinition) request?: RequestDefinition;
  /** a field list the CRM pages (amoCRM: 50 fields a page, `_links.next`): every page is read */
  @IsOptional() @ValidateNested() @Type(() => PaginatorDefinition) paginator?: PaginatorDefinition;
  @IsOptional() @IsString() records?: string;
  @IsOptional() @IsString() key?: string;
  @IsOptional() @IsString() name?: string;
}

export class CustomFieldsDefinition {
  /** list: an array of { id, name, value } objects (amoCRM); keys: keys of an object (Bitrix24 UF_CRM_*, HubSpot) */
  @IsOptional() @IsIn(['list', 'keys']) kind?: 'list' | 'keys';
  /** dotted path of the list or object ('' = the record itself) */
  @IsOptional() @IsString() path?: string;
  @IsOptional() @IsString() id?: string;
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsString() value?: string;
  /** list: path of a stable code (amoCRM field_code: PHONE, EMAIL) that `exclude` may name too */
  @IsOptional() @IsString() code?: string;
  /** keys: a regular expression the key must match */
  @IsOptional() @IsString() include?: string;
  /** ids, names or codes left out (fields already mapped to canonical ones) */
  @IsOptional() @IsArray() @IsString({ each: true }) exclude?: string[];
  /** keys: fetch human names of the keys once per run (Pipedrive dealFields, Bitrix24 crm.item.fields) */
  @IsOptional() @ValidateNested() @Type(() => LabelsDefinition) labels?: LabelsDefinition;
}

/** What the service takes from an enrichment: `products: false` / `history: false` in the settings switch it off. */
export const ENRICH_FEATURES = ['products', 'history'] as const;
export type EnrichFeature = (typeof ENRICH_FEATURES)[number];

/**
 * Answers of an enrichment's endpoint that mean "this account or token does not have it" (a token without the
 * products scope, a plan without the feature): the feature is left out for the rest of the read, with one
 * warning, and the records still go. Any other failure fails the read as usual.
 */
export class EnrichOptionalDefinition {
  /** HTTP statuses that mean "not granted / not enabled"; default 401, 403, 404 */
  @IsOptional() @IsArray() @IsInt({ each: true }) statuses?: number[];
  /** texts of an error answer (any status, or an error object in a 2xx) that mean the same (the CRM's own code) */
  @IsOptional() @IsArray() @IsString({ each: true }) body_contains?: string[];
  /**
   * dotted path, in a 2xx answer, of the errors of a batch's commands, keyed by command (Bitrix24 `batch`:
   * `result.result_error`). The request is refused when every command failed with a text of `body_contains`;
   * any other failed command leaves out the records of its key alone, with a warning naming each.
   */
  @IsOptional() @IsString() error_path?: string;
  /** dotted path of the commands that answered (Bitrix24 `result.result`): with any there, the batch was not refused */
  @IsOptional() @IsString() answers_path?: string;
  /** =JSONata over a command's key (`$`) giving the key of the records it was for (`=$substring($, 1)` for 'd201'); default the key */
  @IsOptional() @IsString() command_id?: string;
  /** how to grant it, for the warning and `check` */
  @IsOptional() @IsString() grant?: string;
  /** how to grant it when the refusal names this text (the CRM's code): the cause decides the advice */
  @IsOptional() @IsObject() grants?: Record<string, string>;
}

/**
 * Related objects fetched per page by the page's ids (after Airbyte's substream partition router and
 * Singer's child streams): batched, paged, selected, mapped and joined back to their record.
 */
export class EnrichDefinition {
  /** attached to each record as `_related.<name>` */
  @IsString() name: string;
  /** the deal field it feeds (`products` or `history`): switched off by the setting of that name, left out when refused */
  @IsOptional() @IsIn(ENRICH_FEATURES) feature?: EnrichFeature;
  @IsOptional() @ValidateNested() @Type(() => RequestDefinition) request?: RequestDefinition;
  /** path (or =JSONata) of the fetched records in an answer */
  @IsOptional() @IsString() records?: string;
  /** path (or =JSONata) in a fetched record of the key it belongs to */
  @IsOptional() @IsString() match?: string;
  /**
   * path (or =JSONata) of the record's keys (default: id): one value or a list (a chain: ids an earlier
   * enrichment found); `{ id, partition }` objects are batched per partition (`{{partition}}` in the request)
   */
  @IsOptional() @IsString() key?: string;
  @IsOptional() @IsInt() @Min(1) batch_size?: number;
  /** pages of one batch's answer; `inject: none` leaves `{{page.<param>}}` to the request's templates */
  @IsOptional() @ValidateNested() @Type(() => PaginatorDefinition) paginator?: PaginatorDefinition;
  /**
   * path of a fetched record's own next-page token, for a CRM whose batch answer pages each record apart (HubSpot's
   * associations: a result's `paging.next.after`): the keys with a token are sent again, `$after` (key → token)
   * bound in the request's templates, until no token comes
   */
  @IsOptional() @IsString() record_paging?: string;
  /** each fetched record becomes these fields (paths or =JSONata); default: kept as fetched */
  @IsOptional() @IsMapping() mapping?: Record<string, MappingValue>;
  /** answers that leave the feature (or, without one, this enrichment) out instead of failing the read */
  @IsOptional() @ValidateNested() @Type(() => EnrichOptionalDefinition) optional?: EnrichOptionalDefinition;
  /**
   * A request `check` sends to learn whether the CRM grants the feature, whatever the sampled deal holds (a deal
   * without products sends no products request): amoCRM's GET /api/v4/catalogs. Its refusal reads as the feature's.
   */
  @IsOptional() @ValidateNested() @Type(() => RequestDefinition) probe?: RequestDefinition;
}

export const STREAM_NAMES = ['managers', 'clients', 'deals'] as const;

/**
 * A read without a cursor (the first, or a full one) of a source whose pages by offset shift when a record is
 * deleted or moves mid-read: its own request (merged over the stream's; a query value null drops a key) and
 * paginator, e.g. by id with a keyset (Bitrix24's settings/performance/huge-data.md).
 */
export class FirstReadDefinition {
  @IsOptional() @ValidateNested() @Type(() => RequestDefinition) request?: RequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => PaginatorDefinition) paginator?: PaginatorDefinition;
}

export class StreamDefinition {
  @IsOptional() @IsBoolean() enabled?: boolean;
  @IsOptional() @ValidateNested() @Type(() => RequestDefinition) request?: RequestDefinition;
  /**
   * Lists read after `request`, each in full, with the stream's paginator, records path, window and cursor: a
   * CRM that keeps some records apart (Pipedrive's archived deals, GET /v2/deals/archived). Each is merged
   * over `request` (its `query` key by key), so it says only what differs, most often the path.
   */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => RequestDefinition) more_requests?: RequestDefinition[];
  /**
   * Take the records from another stream's pages instead of fetching (clients embedded in orders): that
   * stream's request, paginator, window and cursor are used, each page fetched once per run.
   */
  @IsOptional() @IsIn(STREAM_NAMES) from?: (typeof STREAM_NAMES)[number];
  /**
   * dotted path of the records array in the body ('' = the body itself); with `from`, the path of the
   * embedded record (an object or a list) in each record of the other stream
   */
  @IsOptional() @IsString() records?: string;
  /** JSONata predicate; records for which it is false are skipped */
  @IsOptional() @IsString() filter?: string;
  @IsOptional() @ValidateNested() @Type(() => PaginatorDefinition) paginator?: PaginatorDefinition;
  @IsOptional() @ValidateNested() @Type(() => FirstReadDefinition) first_read?: FirstReadDefinition;
  @IsOptional() @ValidateNested() @Type(() => IncrementalDefinition) incremental?: IncrementalDefinition;
  @IsOptional() @ValidateNested() @Type(() => DatesDefinition) dates?: DatesDefinition;
  @IsOptional() @IsMapping() mapping?: Record<string, MappingValue>;
  @IsOptional() @ValidateNested() @Type(() => CustomFieldsDefinition) custom_fields?: CustomFieldsDefinition;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => EnrichDefinition) enrich?: EnrichDefinition[];
  /**
   * Answers that leave this stream out instead of failing the run (amoCRM lists users only to administrators:
   * 403), with one warning naming the answer and `grant`. Only a stream without `incremental`: a cursor never
   * passes records that were not read.
   */
  @IsOptional() @ValidateNested() @Type(() => EnrichOptionalDefinition) optional?: EnrichOptionalDefinition;
}

export type MappingValue =
  | string
  | null
  | { path?: string; expr?: string; const?: unknown; format?: string; timezone?: string };

export class StreamsDefinition {
  @IsOptional() @ValidateNested() @Type(() => StreamDefinition) managers?: StreamDefinition;
  @IsOptional() @ValidateNested() @Type(() => StreamDefinition) clients?: StreamDefinition;
  @IsOptional() @ValidateNested() @Type(() => StreamDefinition) deals?: StreamDefinition;
}
