import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { isTimeZone } from 'tracker-sync/connector';
import type { StreamName } from 'tracker-sync/connector';

export const SHEET_FORMATS = ['csv', 'tsv', 'xlsx'] as const;
export type SheetFormat = (typeof SHEET_FORMATS)[number];
export const SHEET_DELIMITERS = [',', ';', '\t'] as const;
export const SHEET_ENCODINGS = ['utf-8', 'windows-1251'] as const;
export const DECIMAL_MARKS = [',', '.'] as const;
export type SheetEncoding = (typeof SHEET_ENCODINGS)[number];
export const DEFAULT_TIMEZONE = 'Europe/Moscow';

function StringMap(): PropertyDecorator {
  return ValidateBy({
    name: 'stringMap',
    validator: {
      validate: (value) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((v) => typeof v === 'string' && v !== ''),
      defaultMessage: () => 'must be a mapping of names to non-empty strings',
    },
  });
}

function SheetRef(): PropertyDecorator {
  return ValidateBy({
    name: 'sheetRef',
    validator: {
      validate: (value) => (typeof value === 'string' && value !== '') || (Number.isInteger(value) && (value as number) >= 1),
      defaultMessage: () => 'must be a sheet name or a 1-based sheet number',
    },
  });
}

function TimeZoneName(): PropertyDecorator {
  return ValidateBy({
    name: 'timeZoneName',
    validator: {
      validate: (value) => isTimeZone(value),
      defaultMessage: (args) => `${JSON.stringify(args?.value)} is not an IANA time zone (e.g. "Europe/Moscow")`,
    },
  });
}

/** One file, URL or sheet feeding one stream. */
export class SheetSource {
  /** local path (relative to the working directory) or an http(s) URL, e.g. a published Google Sheets CSV link */
  @IsString()
  @IsNotEmpty()
  path!: string;

  /** otherwise from the extension, the content type, or the content */
  @IsOptional()
  @IsIn(SHEET_FORMATS)
  format?: SheetFormat;

  /** xlsx: sheet name or 1-based number; the first sheet otherwise */
  @IsOptional()
  @SheetRef()
  sheet?: string | number;

  /** 1-based row holding the column names; title rows above it are skipped */
  @IsOptional()
  @IsInt()
  @Min(1)
  header_row?: number;

  /** detected from the header line otherwise */
  @IsOptional()
  @IsIn(SHEET_DELIMITERS)
  delimiter?: ',' | ';' | '\t';

  /** detected otherwise (a BOM, valid UTF-8, or chardet) */
  @IsOptional()
  @IsIn(SHEET_ENCODINGS)
  encoding?: SheetEncoding;

  /**
   * the decimal mark of every number of the sheet (the other mark then only groups thousands); otherwise guessed per
   * cell, and a cell either mark reads (`1,234`: 1.234 or 1234) is rejected naming this setting
   */
  @IsOptional()
  @IsIn(DECIMAL_MARKS)
  decimal_mark?: (typeof DECIMAL_MARKS)[number];

  /** canonical field -> header name or column letter ('C') */
  @IsOptional()
  @StringMap()
  columns?: Record<string, string>;

  /** zone of dates written without an offset */
  @IsOptional()
  @TimeZoneName()
  timezone?: string;

  /**
   * the order of slash dates: 'MM/DD/YYYY' reads them month first, 'DD/MM/YYYY' day first; without it a slash date
   * that reads both ways (01/02/2026) is refused, never guessed
   */
  @IsOptional()
  @IsString()
  date_format?: string;

  /** source status -> the service's status id; '*' for the rest */
  @IsOptional()
  @StringMap()
  status_map?: Record<string, string>;

  /**
   * deals: the service's status ids (after status_map) of paid and cancelled deals, default ["1", "2"] (the
   * service's own): a read warns of such deals without a close date (closed_at) or a history entry of their status,
   * which the service would date on receipt, and of deals in other statuses that have a close date
   */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  closed_statuses?: string[];

  /**
   * deals, clients: read only the rows whose updated_at (or created_at) is after the stream's cursor, for files
   * too large to compare whole. Off by default: every row is compared with what the service acknowledged.
   */
  @IsOptional()
  @IsBoolean()
  incremental?: boolean;
}

export class SpreadsheetSettings {
  @IsOptional() @ValidateNested() @Type(() => SheetSource) managers?: SheetSource;
  @IsOptional() @ValidateNested() @Type(() => SheetSource) clients?: SheetSource;
  @IsOptional() @ValidateNested() @Type(() => SheetSource) deals?: SheetSource;
  @IsOptional() @ValidateNested() @Type(() => SheetSource) expenses?: SheetSource;
  @IsOptional() @ValidateNested() @Type(() => SheetSource) mediaplans?: SheetSource;
  @IsOptional() @ValidateNested() @Type(() => SheetSource) leads?: SheetSource;
  @IsOptional() @ValidateNested() @Type(() => SheetSource) events?: SheetSource;
}

export function sheetSourceOf(settings: SpreadsheetSettings, stream: StreamName): SheetSource | undefined {
  return (settings as Record<string, SheetSource | undefined>)[stream];
}
