import { existsSync } from 'fs';
import { STREAM_ORDER, StreamName } from 'tracker-sync/connector';
import type { CheckResult, DiscoveredField } from 'tracker-sync/connector';
import { peekSheet } from './peek-sheet';
import { UncachedFormula } from './rows/sheet-rows';
import { sheetSourceOf, SpreadsheetSettings } from './settings';
import { localSheetPath, lookedAt } from './source/resolve-sheet';
import { reasonOf } from './source/sheet-error';

export function configuredStreams(settings: SpreadsheetSettings): StreamName[] {
  return STREAM_ORDER.filter((stream) => sheetSourceOf(settings, stream) !== undefined);
}

/** A local file that does not exist (yet): the stream's runs fail until it does. URLs are not fetched at start-up. */
export function missingLocalFiles(settings: SpreadsheetSettings): string[] {
  return configuredStreams(settings).flatMap((stream) => {
    const source = sheetSourceOf(settings, stream)!;
    const file = localSheetPath(source);
    if (!file || existsSync(file)) return [];
    return [`settings.${stream}.path: file ${source.path} does not exist${lookedAt(source.path, file)}; the ${stream} stream fails until it does`];
  });
}

/** Each file or URL exists, is readable, and has a header with the columns its stream needs (an id, ...). */
export async function checkSheets(settings: SpreadsheetSettings, workDir?: string): Promise<CheckResult> {
  const streams = configuredStreams(settings);
  if (streams.length === 0) return { ok: false, message: 'no stream configured (settings.deals, settings.clients, ...)' };
  const lines: string[] = [];
  let ok = true;
  for (const stream of streams) {
    try {
      const { sheet, worksheet, layout } = await peekSheet(stream, sheetSourceOf(settings, stream)!, workDir);
      const which = worksheet === undefined ? '' : `, sheet ${worksheet}`;
      lines.push(`${stream}: ${sheet.name} readable (${sheet.format}${which}, ${layout.header.length} columns)`);
    } catch (error) {
      ok = false;
      const reason = reasonOf(error);
      lines.push(reason.startsWith(`${stream}: `) ? reason : `${stream}: ${reason}`);
    }
  }
  return { ok, message: lines.join('; ') };
}

/** The headers of every configured sheet with the canonical field each feeds and an example value. */
export async function discoverSheets(settings: SpreadsheetSettings, workDir?: string): Promise<DiscoveredField[]> {
  const fields: DiscoveredField[] = [];
  for (const stream of configuredStreams(settings)) {
    const { layout, example } = await peekSheet(stream, sheetSourceOf(settings, stream)!, workDir);
    const fieldOf = new Map(Object.entries(layout.index).map(([field, col]) => [col, field]));
    layout.header.forEach((name, col) => {
      const value = example?.[col];
      fields.push({
        stream,
        name,
        type: fieldOf.get(col) ?? 'custom',
        example: value instanceof Date ? value.toISOString() : value instanceof UncachedFormula ? String(value) : value === undefined || value === '' ? null : value,
      });
    });
  }
  return fields;
}
