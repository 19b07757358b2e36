import { Type } from 'class-transformer';
import {
  IsIn, IsInt, IsObject, IsOptional, IsString, Min, registerDecorator, ValidateNested, ValidationArguments,
} from 'class-validator';
import { ATTRIBUTION_VALUES } from 'tracker-sync/connector';
import { cronProblem } from 'tracker-sync/connector';
import { LabelsDefinition } from './stream-definition';
import { isPlainObject } from './validators';

/**
 * `settings.write_back` of a generic-crm connection: which attribution values go into which deal fields,
 * and how the CRM takes an update. A preset ships `request` and `field_list` (its YAML's `write_back:`);
 * the user writes `fields` (and may override any key, or describe a CRM without a preset).
 */

export const WRITE_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export type WriteMethod = (typeof WRITE_METHODS)[number];

/**
 * One update request. `path`, `query` and `body` are templates (as the streams' requests: `{{name}}` or
 * `=JSONata`) with the variables
 *   deals  – the batch: [{ id, values: { <CRM field key>: text }, fields: [{ id: <CRM field key>, value: text }] }]
 *   id, values, fields – those of the batch's first deal (for a CRM updating one deal per request).
 */
export class WriteRequestDefinition {
  @IsOptional() @IsIn(WRITE_METHODS) method?: WriteMethod;
  @IsOptional() @IsString() path?: string;
  @IsOptional() @IsObject() query?: Record<string, unknown>;
  @IsOptional() body?: unknown;
  @IsOptional() @IsObject() headers?: Record<string, string>;
  /** deals per request (default 1) */
  @IsOptional() @IsInt() @Min(1) batch_size?: number;
  /**
   * JSONata over a 2xx answer (`$deals` bound too) giving the deals the CRM refused inside it:
   * [{ "id": ..., "reason": ... }]. Without it, a 2xx answer means every deal of the batch was written.
   */
  @IsOptional() @IsString() rejected?: string;
}

export class WriteBackDefinition {
  /** attribution value -> the CRM deal field (id or name, as visit_field) */
  @IsOptional() @IsWriteBackFields() fields?: Record<string, string | number>;
  /** deals created this many days back or later are looked at */
  @IsOptional() @IsInt() @Min(1) since_days?: number;
  /** cron of a write-back of its own; default: right after each successful sync of the connection */
  @IsOptional() @IsCron() schedule?: string;
  @IsOptional() @ValidateNested() @Type(() => WriteRequestDefinition) request?: WriteRequestDefinition;
  /**
   * The CRM's deal fields (request, records, key = the id the update takes, name = the label), so
   * `fields` may name a field by its label; also what `check` and the first write verify the fields against.
   */
  @IsOptional() @ValidateNested() @Type(() => LabelsDefinition) field_list?: LabelsDefinition;
}

/** Each key an attribution value, each value a field id or name. Names the wrong key. */
function IsWriteBackFields(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isWriteBackFields',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: (args: ValidationArguments) => fieldsProblem(args.value) ?? '' },
      validator: { validate: (value: unknown) => fieldsProblem(value) === undefined },
    });
}

export function fieldsProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'must map attribution values to CRM deal fields';
  for (const [key, field] of Object.entries(value)) {
    if (!(ATTRIBUTION_VALUES as readonly string[]).includes(key)) {
      return `has an unknown value "${key}" (known: ${ATTRIBUTION_VALUES.join(', ')})`;
    }
    if (!(typeof field === 'string' && field.trim() !== '') && typeof field !== 'number') {
      return `has "${key}" without a CRM deal field (give its id or name)`;
    }
  }
  return undefined;
}

function IsCron(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isWriteBackCron',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: (args: ValidationArguments) => `is not a cron expression (${cronProblem(String(args.value))})` },
      validator: { validate: (value: unknown) => typeof value === 'string' && cronProblem(value) === undefined },
    });
}
