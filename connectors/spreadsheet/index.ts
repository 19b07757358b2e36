import type { StreamName } from 'tracker-sync/connector';
import { defineConnector, Page, ReadContext, ReadCursor, StreamSpec } from 'tracker-sync/connector';
import { checkSheets, configuredStreams, discoverSheets, missingLocalFiles } from './check-sheets';
import { isIncremental } from './incremental';
import { readSheet } from './read-sheet';
import { sheetSourceOf, SpreadsheetSettings } from './settings';
import { ScansAhead } from './source/file-scan';
import { SheetSourceError } from './source/sheet-error';

/**
 * Spreadsheet connector: CSV/TSV/XLSX files or URLs, one per stream. See README.md beside this file for the
 * settings and the column conventions.
 */
export const spreadsheetConnector = defineConnector<SpreadsheetSettings>({
  name: 'spreadsheet',
  description: 'CSV, TSV or XLSX files (local paths or http(s) URLs such as published Google Sheets), one per stream',
  settingsClass: SpreadsheetSettings,

  streams(settings: SpreadsheetSettings): StreamSpec[] {
    return configuredStreams(settings).map((name) => ({
      name,
      incremental: isIncremental(name, sheetSourceOf(settings, name)!),
      sorted: false,
    }));
  },

  /** the run's session: the later streams' files scanned ahead while a stream is sent; closing stops them */
  open: () => new ScansAhead(),
  close: (session) => (session as ScansAhead).close(),

  check(settings, context) {
    return checkSheets(settings, context.workDir);
  },

  read(stream: StreamName, cursor: ReadCursor, context: ReadContext<SpreadsheetSettings>): AsyncIterable<Page> {
    const source = sheetSourceOf(context.settings, stream);
    if (!source) {
      return failing(new SheetSourceError(`this connection has no sheet for the stream (settings.${stream}.path)`));
    }
    return readSheet(stream, source, cursor, context);
  },

  /** parsing, row hashes and the read guard's sha256 run on a read's worker thread (src/engine/offload/) */
  workerModule: __filename,

  discover(settings, context) {
    return discoverSheets(settings, context.workDir);
  },

  startupWarnings(settings) {
    return missingLocalFiles(settings);
  },

  /** the deals sheet's own status_map (`check` compares its targets with the project's statuses) */
  statusMap: (settings) => settings.deals?.status_map,
});

async function* failing(error: Error): AsyncGenerator<Page> {
  throw error;
}

export { SpreadsheetSettings, SheetSource } from './settings';
export { SheetSourceError } from './source/sheet-error';
export default spreadsheetConnector;
