import type { ConnectorLogger } from 'tracker-sync/connector';
import { readCsvRows } from './rows/csv-rows';
import type { RowBatch } from './rows/sheet-rows';
import { readXlsxRows } from './rows/xlsx-rows';
import type { SheetSource } from './settings';
import type { ReadGuard } from './source/read-guard';
import type { LocalSheet } from './source/resolve-sheet';
import { sniffText } from './source/text-sniff';

export interface OpenedRows {
  batches: AsyncGenerator<RowBatch>;
  /** cell separator, for excerpts */
  delimiter: string;
  strictWidth: boolean;
}

/**
 * The raw-row reader of a sheet: CSV/TSV after sniffing encoding and delimiter, or XLSX. `plainDelimited` comes from
 * the file's scan (FileScan); without one (a peek at the header), rows go through csv-parse. With a `guard` (a sync's
 * read, not a peek), the file must stay the one scanned until its last row.
 */
export async function openRows(sheet: LocalSheet, source: SheetSource, stream: string, logger?: ConnectorLogger,
  plainDelimited = false, guard?: ReadGuard): Promise<OpenedRows> {
  if (sheet.format === 'xlsx') {
    logger?.log(`${stream}: reading ${sheet.name} (xlsx${source.sheet !== undefined ? `, sheet ${JSON.stringify(source.sheet)}` : ''})`);
    return { batches: readXlsxRows(sheet.file, source.sheet, sheet.name, guard), delimiter: '\t', strictWidth: false };
  }
  const shape = await sniffText(sheet.file, source, sheet.format === 'tsv');
  const shown = `${shape.delimiter === '\t' ? 'TAB' : shape.delimiter}${shape.sepLine ? "; its first line is Excel's sep= line, skipped" : ''}`;
  logger?.log(`${stream}: reading ${sheet.name} (${sheet.format}, ${shape.encoding} by ${shape.detectedBy}, delimiter ${shown})`);
  return { batches: readCsvRows(sheet.file, shape, sheet.name, plainDelimited, guard), delimiter: shape.delimiter, strictWidth: true };
}
