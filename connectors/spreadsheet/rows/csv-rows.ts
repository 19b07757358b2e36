import { CsvError, Options, parse, Parser } from 'csv-parse';
import { createReadStream } from 'fs';
import iconv from 'iconv-lite';
import { finished } from 'stream/promises';
import { PLAIN_LINE_LIMIT } from '../source/file-scan';
import type { TextShape } from '../source/text-sniff';
import { reasonOf, SheetSourceError } from '../source/sheet-error';
import { readPlainRows } from './plain-csv-rows';
import { RowBatch, SkippedRecord } from './sheet-rows';

/** bytes per read: the rows split from one chunk stay alive until the pager has taken them all */
const CHUNK_BYTES = 32 * 1024;
/**
 * an unclosed quote would otherwise gather the rest of the file into one field in memory; twice the longest
 * line split directly, so that a line near the limit goes through csv-parse, which knows exactly where it lies
 */
const MAX_RECORD_BYTES = 2 * PLAIN_LINE_LIMIT;

/**
 * Streams a delimited text file as batches of raw rows (one batch per file chunk), with bounded memory.
 * A file the scan found plain (no quote, no carriage return, no huge line: FileScan.plainDelimited) is split
 * directly (plain-csv-rows: same rows, several times faster).
 * csv-parse is driven by hand: a chunk is written, then every record it produced is drained synchronously,
 * which costs no promise per record (a `for await` over the parser does). Records the parser rejects
 * (bad quoting) arrive as SkippedRecord in their place; a fatal parser error is a SheetSourceError naming
 * the file and line.
 */
export async function* readCsvRows(file: string, shape: TextShape, name: string, plainDelimited: boolean): AsyncGenerator<RowBatch> {
  if (plainDelimited) yield* readPlainRows(file, shape, CHUNK_BYTES);
  else yield* new CsvRowReader(file, shape, name).batches();
}

class CsvRowReader {
  /** records the parser skipped, with the count of records that came before them */
  private readonly skips: Array<{ at: number; record: SkippedRecord }> = [];
  private drained = 0;
  private rowNumber = 0;
  private failure: unknown;
  private readonly parser: Parser;

  constructor(
    private readonly file: string,
    private readonly shape: TextShape,
    private readonly name: string,
  ) {
    this.parser = parse({
      delimiter: shape.delimiter,
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_records_with_error: true,
      max_record_size: MAX_RECORD_BYTES,
      on_skip: (error: CsvError | undefined) => this.skipped(error),
      // keeps each write synchronous: the readable side never pushes back within one chunk
      readableHighWaterMark: 1 << 24,
    } as unknown as Options);
    this.parser.on('error', (error) => (this.failure = error));
  }

  async *batches(): AsyncGenerator<RowBatch> {
    const decoder = this.shape.encoding === 'windows-1251' ? iconv.getDecoder('win1251') : undefined;
    const input = createReadStream(this.file, { highWaterMark: CHUNK_BYTES });
    try {
      for await (const chunk of input) {
        this.parser.write(decoder ? decoder.write(chunk as Buffer) : chunk);
        this.throwOnFailure();
        const batch = this.drain();
        if (batch.rows.length > 0) yield batch;
      }
      this.parser.end();
      await finished(this.parser, { readable: false }).catch((error) => (this.failure ??= error));
      this.throwOnFailure();
      const batch = this.drain();
      if (batch.rows.length > 0) yield batch;
    } finally {
      input.destroy();
      this.parser.destroy();
    }
  }

  private skipped(error: CsvError | undefined): void {
    const line = Number((error as { lines?: number } | undefined)?.lines ?? 0);
    const at = this.drained + this.parser.readableLength;
    this.skips.push({ at, record: new SkippedRecord(describeSkip(error), line) });
  }

  /** every record the last write produced, with skipped ones in their place */
  private drain(): RowBatch {
    const batch: RowBatch = { rows: [], numbers: [] };
    for (;;) {
      while (this.skips.length > 0 && this.skips[0].at <= this.drained) {
        batch.rows.push(this.skips.shift()!.record);
        batch.numbers.push(++this.rowNumber);
      }
      const record: string[] | null = this.parser.read();
      if (record === null) return batch;
      batch.rows.push(record);
      batch.numbers.push(++this.rowNumber);
      this.drained++;
    }
  }

  private throwOnFailure(): void {
    if (this.failure === undefined) return;
    const line = (this.failure as { lines?: number }).lines;
    throw new SheetSourceError(`${this.name}${line ? ` line ${line}` : ''}: cannot read the file as CSV: ${reasonOf(this.failure)}`);
  }
}

function describeSkip(error: CsvError | undefined): string {
  if (error?.code === 'CSV_QUOTE_NOT_CLOSED') {
    return `a quote opened in this row is never closed, so the rest of the file cannot be read (${error.message})`;
  }
  if (error?.code === 'CSV_MAX_RECORD_SIZE') {
    return `the row is longer than ${MAX_RECORD_BYTES} bytes, most likely an unclosed quote; the rest of the file cannot be read`;
  }
  return error?.message ?? 'unreadable record';
}
