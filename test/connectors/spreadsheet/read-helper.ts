import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { CanonicalRecord, StreamName } from '../../../src/connectors/canonical';
import type { Page, ReadContext, ReadCursor, RejectedInput } from '../../../src/connectors/connector-definition';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import type { SpreadsheetSettings } from '../../../connectors/spreadsheet/settings';

export const FIXTURES = join(__dirname, '../../fixtures/sheets');

export const OPEN_CURSOR: ReadCursor = { since: null, until: new Date('2100-01-01T00:00:00Z') };

export interface ReadResult<T extends CanonicalRecord = CanonicalRecord> {
  pages: Page[];
  records: T[];
  refs: string[];
  hashes: string[];
  rejected: RejectedInput[];
  state: Record<string, unknown> | null | undefined;
  logs: string[];
}

export async function readStream<T extends CanonicalRecord = CanonicalRecord>(
  settings: SpreadsheetSettings,
  stream: StreamName,
  options: {
    cursor?: ReadCursor; state?: Record<string, unknown> | null; workDir?: string; limit?: number; laterStreams?: StreamName[]; session?: unknown;
    openRejections?: string[];
  } = {},
): Promise<ReadResult<T>> {
  const logs: string[] = [];
  const context: ReadContext<SpreadsheetSettings> = {
    connectionId: 'test',
    settings,
    logger: { log: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`), notice: (m) => logs.push(`NOTICE ${m}`) },
    state: options.state ?? null,
    workDir: options.workDir,
    limit: options.limit,
    laterStreams: options.laterStreams,
    session: options.session,
    openRejections: options.openRejections,
  };
  const result: ReadResult<T> = { pages: [], records: [], refs: [], hashes: [], rejected: [], state: undefined, logs };
  for await (const page of spreadsheetConnector.read(stream, options.cursor ?? OPEN_CURSOR, context)) {
    result.pages.push(page);
    result.records.push(...(page.records as T[]));
    result.refs.push(...(page.refs ?? []));
    result.hashes.push(...(page.hashes ?? []));
    result.rejected.push(...(page.rejected ?? []));
    result.state = page.state;
  }
  return result;
}

/** A temp folder removed by the returned cleanup. */
export function tempDir(): { dir: string; write(name: string, content: string | Buffer): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sheet-test-'));
  return {
    dir,
    write(name, content) {
      const file = join(dir, name);
      writeFileSync(file, content);
      return file;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
