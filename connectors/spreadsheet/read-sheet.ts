import type { StreamName } from 'tracker-sync/connector';
import type { Page, ReadContext, ReadCursor } from 'tracker-sync/connector';
import { headerHint } from './header-hint';
import { isIncremental } from './incremental';
import { openRows } from './open-rows';
import { sheetSourceOf, SheetSource, SpreadsheetSettings } from './settings';
import { SheetPager } from './sheet-pager';
import { runScan, ScansAhead, scanFile } from './source/file-scan';
import { FileChangedError, ReadGuard } from './source/read-guard';
import { currentStamp, stampOf } from './source/quick-stamp';
import { localSheetPath, resolveSheet } from './source/resolve-sheet';
import { SheetSourceError } from './source/sheet-error';
import { seedOf } from './values/row-hash';
import type { RowBatch } from './rows/sheet-rows';

/** bump when a change of this connector changes what a row maps to, so unchanged files are read again */
const MAPPING_VERSION = 'spreadsheet-1';
/**
 * Part of the content hash only (not of the row fingerprints): bump when a file may have been recorded as read
 * wrongly, so that every file is parsed once more without re-sending its unchanged rows.
 * read-2: a file whose long row ended the read early was recorded as read (before the record framer), and a
 * header's repeated names were resolved silently (the later value of a repeated custom column was lost).
 * read-3: a sheet with an updated_at column was read incrementally by default, so a row edited without touching
 * updated_at was skipped, yet the file was recorded as read; every row of such a file is compared once more.
 * read-4: a file with its header only was recorded as read, so while it stayed so no run said it (it is not recorded
 * now, and warned each run); the parse also records how many rows each file has, which that warning names.
 * read-5: a file whose first 64 KB were ASCII was read as UTF-8 whatever came after (its Windows-1251 rows
 * rejected), a `1,234` was read as 1.234, an id Excel had rounded (`1,23457E+11`) was sent, a hidden first sheet of
 * an XLSX was read: such files are read once more, so their rows arrive or their rejections show.
 * read-6: a slash date that reads both ways (01/02/2026) was read day first without a date_format; it is refused
 * now, so every file is parsed once more and such rows show as rejected. The state records the header's fields.
 */
const READ_VERSION = 'read-6';

/**
 * One stream's read: find (or download) the file, scan it (hash, plain or quoted), stop there when the hash
 * matches the state of the last acknowledged read, otherwise stream its rows into pages. The rows must come from
 * the very bytes scanned (source/read-guard.ts): a file that changes while it is read fails the stream, and its
 * hash (on the last page) is never handed out. A local file whose stamp is the one its last read recorded is not
 * even hashed (source/quick-stamp.ts). The local files of the streams this run reads later are scanned while this
 * one is read, on another thread (kept in the run's session, ScansAhead).
 */
export async function* readSheet(
  stream: StreamName,
  source: SheetSource,
  cursor: ReadCursor,
  context: ReadContext<SpreadsheetSettings>,
): AsyncGenerator<Page> {
  const ahead = context.session instanceof ScansAhead ? context.session : undefined;
  const known = context.limit ? null : context.state;
  const lastRead = typeof known?.rows === 'number' && known.rows > 0 ? ` (the last read of this stream had ${known.rows.toLocaleString('en-US')} rows)` : '';
  const sheet = await resolveSheet(source, stream, context.workDir).catch((error: unknown) => {
    // an export that came out empty, or is gone, where it had rows: said with the failure
    throw error instanceof SheetSourceError && lastRead ? new SheetSourceError(`${error.message}${lastRead}`) : error;
  });
  const digest = settingsDigest(stream, source);
  const content = contentDigest(stream, source);
  if (known?.file_stamp && localSheetPath(source) && known.file_stamp === (await currentStamp(sheet.file, content))) {
    context.logger.log(`${stream}: ${sheet.name} is unchanged since the last sync (same inode, size and times)`);
    yield { records: [], unchanged: true, state: known };
    return;
  }
  if (ahead) scanLaterSheets(context, ahead);
  const scan = await scanFile(sheet.file, content, ahead);
  if (scan.changed) throw new FileChangedError(sheet.name, scan.changed);
  if (scan.scannedAhead) context.logger.debug?.(`${stream}: ${sheet.name} was scanned while the run's earlier streams were read`);
  const { hash } = scan;
  const fileStamp = localSheetPath(source) ? stampOf(scan, content) : null;
  if (known && known.content_hash === hash) {
    context.logger.log(`${stream}: ${sheet.name} is unchanged since the last sync`);
    yield { records: [], unchanged: true, state: { ...known, file_stamp: fileStamp } };
    return;
  }
  const guard = new ReadGuard(sheet.file, sheet.name, scan, content, () => runScan(sheet.file, content));
  const rows = await openRows(sheet, source, stream, context.logger, scan, guard);
  const meter: ByteMeter = { bytes: null };
  const pager = new SheetPager({
    stream,
    source,
    sheetName: sheet.name,
    cursor,
    incremental: isIncremental(stream, source),
    strictWidth: rows.strictWidth,
    delimiter: rows.delimiter,
    encoding: rows.encoding,
    seed: seedOf(digest),
    contentHash: hash,
    fileBytes: scan.stamp.size,
    fileStamp,
    limit: context.limit,
    signal: context.signal,
    lastLayout: known?.layout,
    openRejections: context.openRejections ? new Set(context.openRejections) : undefined,
    warn: (message) => context.logger.warn(message),
    // a daily export that came out with its header only has usually failed: a warning the run keeps (notice)
    headerOnly: () =>
      (context.logger.notice ?? context.logger.warn)(`connection ${context.connectionId}, stream ${stream}: ${sheet.name} has its header only: no rows read${lastRead}`),
    notice: (message) => (context.logger.notice ? context.logger.notice(message) : context.logger.warn(message)),
  });
  let paged = false;
  try {
    for await (const page of withProgress(pager.pages(metered(rows.batches, meter)), meter, scan.stamp.size)) {
      paged = true;
      yield page;
    }
  } catch (error) {
    // a header that names none of the wanted columns fails before any page: where they are named, if nearby
    if (paged || !(error instanceof SheetSourceError) || error instanceof FileChangedError) throw error;
    const hint = await headerHint(stream, source, sheet);
    throw hint ? new SheetSourceError(`${error.message}${hint}`) : error;
  } finally {
    await rows.batches.return(undefined);
  }
}

/** How far the row reader is into the file: the last batch's bytesRead (absent for XLSX). */
interface ByteMeter {
  bytes: number | null;
}

async function* metered(batches: AsyncIterable<RowBatch>, meter: ByteMeter): AsyncGenerator<RowBatch> {
  for await (const batch of batches) {
    if (batch.bytesRead !== undefined) meter.bytes = batch.bytesRead;
    yield batch;
  }
}

/** Each page says how far through the file the read is (Page.progress): a progress display's percentage. */
async function* withProgress(pages: AsyncIterable<Page>, meter: ByteMeter, size: number): AsyncGenerator<Page> {
  for await (const page of pages) {
    if (meter.bytes !== null) page.progress = { done: Math.min(meter.bytes, size), total: size, unit: 'bytes' };
    yield page;
  }
}

/**
 * Kept in the run's session (a read outside a run scans only its own file). URLs are left alone: they are
 * downloaded when their stream is read, and may change until then.
 */
function scanLaterSheets(context: ReadContext<SpreadsheetSettings>, ahead: ScansAhead): void {
  for (const later of context.laterStreams ?? []) {
    const source = sheetSourceOf(context.settings, later);
    const file = source && localSheetPath(source);
    if (file) void ahead.scanAhead(file, contentDigest(later, source));
  }
}

/**
 * What the content hash covers besides the file's bytes: the settings, and the version of the reading. The settings
 * that shape no record (closed_statuses: the read's warnings) too, so a change of them reads the file again.
 */
export function contentDigest(stream: StreamName, source: SheetSource): string {
  return `${READ_VERSION}|${settingsDigest(stream, source)}|${JSON.stringify(source.closed_statuses ?? null)}`;
}

/** Settings that shape no record: not part of the rows' seed, so changing them re-sends nothing. */
const NOT_SHAPING = new Set(['path', 'closed_statuses']);

/**
 * The settings that shape the records (all but `path` and `closed_statuses`), in a stable order: part of the content
 * hash and the row fingerprints' seed, so a mapping change re-reads the file and re-sends its rows.
 */
export function settingsDigest(stream: StreamName, source: SheetSource): string {
  const sorted = Object.keys(source)
    .filter((key) => !NOT_SHAPING.has(key))
    .sort()
    .map((key) => [key, (source as unknown as Record<string, unknown>)[key]]);
  return `${MAPPING_VERSION}|${stream}|${JSON.stringify(sorted)}`;
}
