import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { MappingValue, RequestDefinition } from './stream-definition';

/**
 * `settings.stages`, the older form of the deal stages for `statuses: register` (the presets describe them once, in
 * `discover:`, and a user's `discover:` is read the same way; see stages.ts). When given, it wins over `discover:`.
 * `records` is a dotted path or `=JSONata` giving the list of stages (e.g. every pipeline's statuses, flattened);
 * `mapping` gives each stage's `id` (as deals carry it), `name` and `type` (`progress`, `paid` or `canceled`), each a
 * path or `=JSONata` like a stream's mapping.
 */
export class StagesDefinition {
  @IsOptional() @ValidateNested() @Type(() => RequestDefinition) request?: RequestDefinition;
  @IsOptional() @IsString() records?: string;
  @IsOptional() @IsObject() mapping?: { id?: MappingValue; name?: MappingValue; type?: MappingValue };
}
