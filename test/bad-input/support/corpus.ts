import { join } from 'path';

export const SHEETS = join(__dirname, '..', '..', 'fixtures', 'bad-input', 'sheets');
export const CONFIGS = join(__dirname, '..', '..', 'fixtures', 'bad-input', 'configs');

/** A rejected record as the store keeps it (rejected_record) and the CLI and admin API show it. */
export interface ExpectedRejection {
  /** the record's id in the source ('' when the row had none) */
  id: string;
  field: string;
  reason: RegExp;
  /** the row its ref must name (spreadsheet numbering: the header is row 1) */
  row?: number;
}
