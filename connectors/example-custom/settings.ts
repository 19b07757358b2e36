import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

/**
 * What a connection writes under `settings:`. Validated at config load (unknown keys are errors, and
 * messages carry the config path, e.g. `connections[2].settings.path: must be a string`).
 */
export class ExampleCustomSettings {
  /** a JSON-lines file: one object per line, `{"type": "deal" | "client" | "manager", ...fields}` */
  @IsString() path: string;

  /** records per page handed to the engine */
  @IsOptional() @IsInt() @Min(1) @Max(10_000) page_size?: number = 500;
}
