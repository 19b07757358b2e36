import { closeSync, openSync, readSync } from 'fs';
import { resolve } from 'path';
import type { StreamName } from 'tracker-sync/connector';
import { UPDATABLE_STREAMS } from './mapping/mappers';
import type { SheetSource } from './settings';
import { formatFromName } from './source/format-detection';
import { isUrl } from './source/sheet-error';
import { detectDelimiter, detectEncoding } from './source/text-sniff';
import iconv from 'iconv-lite';

const PEEK_BYTES = 64 * 1024;

/**
 * Whether a stream reads incrementally by its updated_at column. `streams()` is synchronous, so this looks
 * only where it can cheaply: the `incremental` setting, a mapped updated_at column, or the header line of a
 * local CSV/TSV. A URL or an XLSX file is not incremental unless one of the settings says so; the engine then
 * relies on fingerprints.
 */
export function isIncremental(stream: StreamName, source: SheetSource): boolean {
  if (!UPDATABLE_STREAMS.has(stream)) return false;
  if (source.incremental !== undefined) return source.incremental;
  if (source.columns?.updated_at) return true;
  if (isUrl(source.path)) return false;
  const format = source.format ?? formatFromName(source.path) ?? 'csv';
  if (format === 'xlsx') return false;
  return headerNames(source, format === 'tsv').includes('updated_at');
}

function headerNames(source: SheetSource, tsv: boolean): string[] {
  const sample = peek(resolve(process.cwd(), source.path));
  if (!sample) return [];
  const encoding = source.encoding ?? detectEncoding(sample).encoding;
  const text = (encoding === 'utf-8' ? sample.toString('utf8') : iconv.decode(sample, 'win1251')).replace(/^\uFEFF/, '');
  const line = text.split(/\r\n|\n|\r/, source.header_row ?? 1).pop() ?? '';
  const delimiter = source.delimiter ?? (tsv ? '\t' : detectDelimiter(line));
  return line.split(delimiter).map((name) => name.replace(/^"|"$/g, '').trim().toLowerCase());
}

function peek(file: string): Buffer | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(PEEK_BYTES);
    const bytes = readSync(fd, buffer, 0, PEEK_BYTES, 0);
    return buffer.subarray(0, bytes);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
