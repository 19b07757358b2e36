import type { StreamName } from '../../src/connectors/canonical';
import type { Page, ReadContext, ReadCursor } from '../../src/connectors/connector-definition';
import { isIncremental } from './incremental';
import { openRows } from './open-rows';
import { sheetSourceOf, SheetSource, SpreadsheetSettings } from './settings';
import { SheetPager } from './sheet-pager';
import { scanAhead, scanFile } from './source/file-scan';
import { localSheetPath, resolveSheet } from './source/resolve-sheet';
import { seedOf } from './values/row-hash';

/** bump when a change of this connector changes what a row maps to, so unchanged files are read again */
const MAPPING_VERSION = 'spreadsheet-1';

/**
 * One stream's read: find (or download) the file, scan it (hash, plain or quoted), stop there when the hash
 * matches the state of the last acknowledged read, otherwise stream its rows into pages. The local files of the
 * streams this run reads later are scanned meanwhile, on another thread.
 */
export async function* readSheet(
  stream: StreamName,
  source: SheetSource,
  cursor: ReadCursor,
  context: ReadContext<SpreadsheetSettings>,
): AsyncGenerator<Page> {
  scanLaterSheets(context);
  const sheet = await resolveSheet(source, stream, context.workDir);
  const digest = settingsDigest(stream, source);
  const { hash, plainDelimited } = await scanFile(sheet.file, digest);
  if (!context.limit && context.state && context.state.content_hash === hash) {
    context.logger.log(`${stream}: ${sheet.name} is unchanged since the last sync`);
    yield { records: [], unchanged: true, state: context.state };
    return;
  }
  const rows = await openRows(sheet, source, stream, context.logger, plainDelimited);
  const pager = new SheetPager({
    stream,
    source,
    sheetName: sheet.name,
    cursor,
    incremental: isIncremental(stream, source),
    strictWidth: rows.strictWidth,
    delimiter: rows.delimiter,
    seed: seedOf(digest),
    contentHash: hash,
    limit: context.limit,
    signal: context.signal,
    warn: (message) => context.logger.warn(message),
  });
  try {
    yield* pager.pages(rows.batches);
  } finally {
    await rows.batches.return(undefined);
  }
}

/** URLs are left alone: they are downloaded when their stream is read, and may change until then. */
function scanLaterSheets(context: ReadContext<SpreadsheetSettings>): void {
  for (const later of context.laterStreams ?? []) {
    const source = sheetSourceOf(context.settings, later);
    const file = source && localSheetPath(source);
    if (file) void scanAhead(file, settingsDigest(later, source));
  }
}

/**
 * The settings that shape the records (all but `path`), in a stable order: part of the content hash and the
 * row fingerprints' seed, so a mapping change re-reads the file and re-sends its rows.
 */
export function settingsDigest(stream: StreamName, source: SheetSource): string {
  const sorted = Object.keys(source)
    .filter((key) => key !== 'path')
    .sort()
    .map((key) => [key, (source as unknown as Record<string, unknown>)[key]]);
  return `${MAPPING_VERSION}|${stream}|${JSON.stringify(sorted)}`;
}
