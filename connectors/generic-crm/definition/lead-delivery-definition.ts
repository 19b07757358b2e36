import { Type } from 'class-transformer';
import {
  IsIn, IsInt, IsNotEmpty, IsNumber, IsObject, IsOptional, IsString, Matches, Min, registerDecorator, ValidateNested, ValidationArguments,
} from 'class-validator';
import { cronProblem } from 'tracker-sync/connector';
import { PaginatorDefinition } from './stream-definition';
import { WRITE_METHODS, WriteMethod } from './write-back-definition';
import { isPlainObject } from './validators';

/**
 * `settings.lead_delivery` of a generic-crm connection (README "Leads into the CRM"): the service's proxy leads
 * become deals. The user writes the keys of the issue (schedule … duplicate_days); a preset ships `requests`
 * (its YAML's `lead_delivery.requests`), a CRM without one describes them here.
 */

/**
 * One request of lead delivery. `path`, `query` and `body` are templates (as the streams' and write_back's
 * requests: `{{name}}` or `=JSONata` with the variables bound as `$name`); `answer` is JSONata over the CRM's
 * answer (variables bound too) giving what the step needs (see LeadRequestsDefinition).
 */
export class LeadRequestDefinition {
  @IsOptional() @IsIn(['GET', ...WRITE_METHODS]) method?: 'GET' | WriteMethod;
  @IsString() @IsNotEmpty() path: string;
  @IsOptional() @IsObject() query?: Record<string, unknown>;
  @IsOptional() body?: unknown;
  @IsOptional() @IsObject() headers?: Record<string, string>;
  @IsOptional() @IsString() answer?: string;
  /**
   * A look-up the CRM pages (find_deals, find_contacts, contact_deals, read_deals): one of the streams' paginators
   * (`page_number`, `offset`, `cursor`, `next_url`, `link_header`); every page is read, since a match on a later
   * page decides whether a deal or contact is created. `reslice_at`: the offset the CRM's search cannot page past
   * (HubSpot: 10,000); a look-up that would need it fails instead of deciding on part of the matches.
   */
  @IsOptional() @ValidateNested() @Type(() => PaginatorDefinition) paginator?: PaginatorDefinition;
  /**
   * with a paginator: the dotted path of the page's items in the answer (what the paginator counts: an `answer`
   * that keeps only exact matches may keep none of a full page); default: the answer's list
   */
  @IsOptional() @IsString() records?: string;
}

/**
 * The requests, with their variables and what `answer` gives:
 *   pipelines      –                                   → [{ id, name, main?, stages?: [{ id, name, refused? }] }]
 *   stages         pipeline                            → [{ id, name, refused? }] (when `pipelines` gives no stages)
 *                  `refused`: why a deal cannot be created in the stage (amoCRM's unsorted stage); the default stage
 *                  is the first without, and lead_delivery.stage naming one fails with the reason
 *   users          –                                   → [{ id, name }]
 *   deal_fields    –                                   → [{ key, name }]
 *   find_deals     field (key), value (proxy lead id), pipeline → [{ id, value }]: `value` the deal's lead_id_field,
 *                  compared exactly with the lead id (a search hit is no match by itself); or [id]: ids read with
 *                  read_deals, or without it ids the CRM matched exactly itself
 *   read_deals     ids (of find_deals, one page of them), field → [{ id, value }] (optional; a search that answers ids only)
 *   find_contacts  phone (79120001122), phone_local (9120001122), phone_plus (+79120001122), email → [{ id, phones?, emails?, deals? }]
 *   contact_deals  contact, deal_ids (the contact's `deals`), pipeline, since (ISO) → [{ id, pipeline, open, created }]
 *   create_contact name, phone (+79120001122 or ''), email → id
 *   create_deal    title, pipeline, stage, responsible, contact, fields ({ key: text }), field_list ([{ id, value }]) → id
 *   link_contact   deal, contact (only for a CRM that links after the create)
 *   add_note       deal, text, now (ISO), now_ms → id
 *   find_notes     deal, lead (proxy lead id), text (the note add_note sends) → [{ id, text }] (the deal's newest
 *                  notes; the flow picks the one whose text names `proxy lead <lead>`, HTML or not), or [id]:
 *                  ids to read with read_notes, or without it notes the CRM's search matched itself. Optional:
 *                  without it a note whose outcome is unknown is never sent again (README "Leads into the CRM").
 *   read_notes     ids (of find_notes), deal, lead → [{ id, text }] (optional; a CRM that lists only note ids)
 */
export class LeadRequestsDefinition {
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) pipelines?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) stages?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) users?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) deal_fields?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) find_deals?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) read_deals?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) find_contacts?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) contact_deals?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) create_contact?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) create_deal?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) link_contact?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) add_note?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) find_notes?: LeadRequestDefinition;
  @IsOptional() @ValidateNested() @Type(() => LeadRequestDefinition) read_notes?: LeadRequestDefinition;
}

export const LEAD_REQUIRED_REQUESTS = ['pipelines', 'users', 'deal_fields', 'find_deals', 'find_contacts', 'contact_deals', 'create_contact', 'create_deal', 'add_note'] as const;

export class LeadDeliveryDefinition {
  /** how often to look for new proxy leads (default every minute) */
  @IsOptional() @IsLeadCron() schedule?: string;
  /** first day of leads to take (default: the day the connection first delivers) */
  @IsOptional() @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'since must be a day, YYYY-MM-DD' }) since?: string;
  /** the CRM pipeline (id or name); default the CRM's main one */
  @IsOptional() @IsIdOrName() pipeline?: string | number;
  /** its stage (id or name); default the pipeline's first */
  @IsOptional() @IsIdOrName() stage?: string | number;
  /** CRM user id (or name) responsible for the new deals */
  @IsOptional() @IsIdOrName() responsible?: string | number;
  /** a deal field (id or name) keeping the proxy lead id: required (a preset's section, only `requests`, has none) */
  @IsRequiredIdOrName() lead_id_field: string | number;
  /** deal title template (default "{{title}}") */
  @IsOptional() @IsString() title?: string;
  /** more deal fields (id or name) → templates */
  @IsOptional() @IsTemplates() fields?: Record<string, string>;
  @IsOptional() @IsIn(['attach', 'create']) duplicates?: 'attach' | 'create';
  @IsOptional() @IsInt() @Min(0) duplicate_days?: number;
  /**
   * seconds a created deal may take to show in find_deals (a search index filled after the write, as HubSpot's:
   * its preset ships 30); a create whose outcome is unknown is looked up only after them
   */
  @IsOptional() @IsNumber() @Min(0) lookup_lag_seconds?: number;
  /**
   * the least seconds between a create's unknown outcome (a 5xx that is no rate refusal, a timeout, a dropped
   * connection) and its look-up (default 10): a gateway's 504 or our own timeout can come while the CRM still makes
   * the record. The longer of it and lookup_lag_seconds is waited
   */
  @IsOptional() @IsNumber() @Min(0) settle_seconds?: number;
  /** the CRM's requests (presets ship them) */
  @IsOptional() @ValidateNested() @Type(() => LeadRequestsDefinition) requests?: LeadRequestsDefinition;
}

function IsIdOrName(): PropertyDecorator {
  return decorator('isIdOrName', (value) => (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? undefined : 'must be an id or a name'));
}

/** What a preset's lead_delivery holds: the CRM's requests and how its look-up lags; no user key. */
const PRESET_LEAD_KEYS = new Set(['requests', 'lookup_lag_seconds', 'settle_seconds']);

/** Required in a user's lead_delivery; a preset's (nothing but PRESET_LEAD_KEYS) goes without. */
function IsRequiredIdOrName(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isRequiredIdOrName',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: (args: ValidationArguments) => (args.value === undefined || args.value === null
          ? 'is required: the deal field (id or name) that keeps the proxy lead id'
          : 'must be an id or a name'),
      },
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          if (value === undefined || value === null) return Object.keys((args?.object ?? {}) as object).every((key) => PRESET_LEAD_KEYS.has(key) || (args!.object as Record<string, unknown>)[key] === undefined);
          return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '');
        },
      },
    });
}

function IsTemplates(): PropertyDecorator {
  return decorator('isLeadTemplates', (value) => {
    if (!isPlainObject(value)) return 'must map deal fields (id or name) to templates such as "{{text}}"';
    const bad = Object.entries(value).find(([, template]) => typeof template !== 'string' && typeof template !== 'number');
    return bad ? `has "${bad[0]}" without a template (a string such as "{{text}}")` : undefined;
  });
}

function IsLeadCron(): PropertyDecorator {
  return decorator('isLeadCron', (value) => (typeof value === 'string' && cronProblem(value) === undefined ? undefined : `is not a cron expression (${cronProblem(String(value))})`));
}

function decorator(name: string, problem: (value: unknown) => string | undefined): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: (args: ValidationArguments) => problem(args.value) ?? '' },
      validator: { validate: (value: unknown) => problem(value) === undefined },
    });
}
