import type { ConnectorLogger } from 'tracker-sync/connector';
import { readCsvRows } from './rows/csv-rows';
import type { RowBatch } from './rows/sheet-rows';
import { openXlsxRows } from './rows/xlsx-rows';
import type { SheetEncoding, SheetSource } from './settings';
import type { ReadGuard } from './source/read-guard';
import type { LocalSheet } from './source/resolve-sheet';
import { sniffText } from './source/text-sniff';

export interface OpenedRows {
  batches: AsyncGenerator<RowBatch>;
  /** cell separator, for excerpts */
  delimiter: string;
  strictWidth: boolean;
  /** XLSX: the worksheet read */
  sheet?: string;
  /** CSV/TSV: the encoding read, and whether the settings named it (for the message of a row that is not in it) */
  encoding?: { name: SheetEncoding; set: boolean };
}

/** What the file's scan (FileScan) tells the reader; a peek at the header has none. */
export interface ScanFacts {
  plainDelimited: boolean;
  invalidUtf8At: number | null;
}

/**
 * The raw-row reader of a sheet: CSV/TSV after sniffing encoding and delimiter, or XLSX. With the file's `scan`
 * the whole file's bytes decide the encoding and a plain file is split directly; without one (a peek at the
 * header) the first 64 KB decide and rows go through csv-parse. With a `guard` (a sync's read, not a peek), the
 * file must stay the one scanned until its last row.
 */
export async function openRows(sheet: LocalSheet, source: SheetSource, stream: string, logger?: ConnectorLogger,
  scan?: ScanFacts, guard?: ReadGuard): Promise<OpenedRows> {
  if (sheet.format === 'xlsx') {
    const xlsx = await openXlsxRows(sheet.file, source.sheet, sheet.name, guard);
    const hidden = xlsx.hiddenBefore.map((name) => JSON.stringify(name)).join(', ');
    const skipped = hidden ? `; the hidden ${xlsx.hiddenBefore.length > 1 ? 'sheets' : 'sheet'} ${hidden} before it not read` : '';
    logger?.log(`${stream}: reading ${sheet.name} (xlsx, sheet ${xlsx.sheet}${skipped})`);
    return { batches: xlsx.batches, delimiter: '\t', strictWidth: false, sheet: xlsx.sheet };
  }
  const shape = await sniffText(sheet.file, source, sheet.format === 'tsv', sheet.name, scan?.invalidUtf8At);
  const shown = `${shape.delimiter === '\t' ? 'TAB' : shape.delimiter}${shape.sepLine ? "; its first line is Excel's sep= line, skipped" : ''}`;
  logger?.log(`${stream}: reading ${sheet.name} (${sheet.format}, ${shape.encoding} by ${shape.detectedBy}, delimiter ${shown})`);
  const batches = readCsvRows(sheet.file, shape, sheet.name, scan?.plainDelimited ?? false, guard);
  return { batches, delimiter: shape.delimiter, strictWidth: true, encoding: { name: shape.encoding, set: source.encoding !== undefined } };
}
