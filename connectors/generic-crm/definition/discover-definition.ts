import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { EnrichOptionalDefinition, PaginatorDefinition, RequestDefinition } from './stream-definition';

/**
 * `discover:` of a preset (or of a user's settings): where the CRM lists its pipelines, stages, fields and
 * users, so `cli discover` and `init` can propose a mapping with no code per CRM. Every value that picks
 * something out of an answer is a dotted path or `=JSONata` evaluated on the item.
 */
export class DiscoverListDefinition {
  /** one GET (or POST) per list; absent on `stages` = the stages are inside each pipeline (`records` below) */
  @IsOptional() @ValidateNested() @Type(() => RequestDefinition) request?: RequestDefinition;
  /**
   * a list the CRM pages (Bitrix24's 50 a page, Pipedrive v2's cursor): the stream paginators. With `=JSONata`
   * records a page may pick none of its items, so the pages end on the paginator's token or URL, not on a count.
   */
  @IsOptional() @ValidateNested() @Type(() => PaginatorDefinition) paginator?: PaginatorDefinition;
  /** the items in the answer (or in a pipeline, for embedded stages): a path or `=JSONata` over the answer */
  @IsOptional() @IsString() records?: string;
  /** default `id` */
  @IsOptional() @IsString() id?: string;
  /** default `name` */
  @IsOptional() @IsString() name?: string;
  /** fields: the field's type */
  @IsOptional() @IsString() type?: string;
  /** stages with a request of their own: the id of the pipeline a stage belongs to */
  @IsOptional() @IsString() pipeline?: string;
  /** stages: what the CRM says the stage means, `=JSONata` giving won, lost or open (default open) */
  @IsOptional() @IsString() outcome?: string;
  /**
   * stages: `=JSONata`, false for a stage the CRM takes no new deal in through its API (amoCRM's unsorted one, type
   * 1); lead delivery's proposal skips it. Default true
   */
  @IsOptional() @IsString() creatable?: string;
  /** answers that make this list empty instead of failing (amoCRM's users to a token of no administrator: 403) */
  @IsOptional() @ValidateNested() @Type(() => EnrichOptionalDefinition) optional?: EnrichOptionalDefinition;
}

export const OUTCOMES = ['won', 'lost', 'open'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A deal status that is not a stage (Pipedrive: a closed deal's status is won or lost, whatever its stage). */
export class DealStatusDefinition {
  @IsString() key: string;
  @IsString() name: string;
  @IsIn(OUTCOMES) outcome: Outcome;
}

export class DiscoverDefinition {
  @IsOptional() @ValidateNested() @Type(() => DiscoverListDefinition) pipelines?: DiscoverListDefinition;
  @IsOptional() @ValidateNested() @Type(() => DiscoverListDefinition) stages?: DiscoverListDefinition;
  /** statuses a deal's `status` takes besides its stage ids */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => DealStatusDefinition) deal_statuses?: DealStatusDefinition[];
  @IsOptional() @ValidateNested() @Type(() => DiscoverListDefinition) deal_fields?: DiscoverListDefinition;
  @IsOptional() @ValidateNested() @Type(() => DiscoverListDefinition) contact_fields?: DiscoverListDefinition;
  @IsOptional() @ValidateNested() @Type(() => DiscoverListDefinition) users?: DiscoverListDefinition;
}
