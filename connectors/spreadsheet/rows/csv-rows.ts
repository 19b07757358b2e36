import { Options, parse, Parser } from 'csv-parse';
import { finished } from 'stream/promises';
import type { ReadGuard } from '../source/read-guard';
import type { TextShape } from '../source/text-sniff';
import { FileChunks } from './file-chunks';
import { win1251Decoder } from './legacy-decoder';
import { reasonOf, SheetSourceError } from '../source/sheet-error';
import { readPlainRows } from './plain-csv-rows';
import { Framed, OverlongRecord, RecordFramer } from './record-framer';
import { MAX_ROW_BYTES, overlongRow, RowBatch } from './sheet-rows';

/** bytes per read: the rows split from one chunk stay alive until the pager has taken them all */
const CHUNK_BYTES = 32 * 1024;

/**
 * Streams a delimited text file as batches of raw rows (one batch per file chunk), with bounded memory.
 * A file the scan found plain (no quote, no carriage return: FileScan.plainDelimited) is split directly
 * (plain-csv-rows: same rows, several times faster). Any other goes through csv-parse, driven by hand: a chunk
 * is written, then every record it produced is drained synchronously, which costs no promise per record (a
 * `for await` over the parser does). In front of the parser, a RecordFramer finds where each record ends: a
 * record over MAX_ROW_BYTES is rejected in its place (a SkippedRecord) and a new parser goes on after it; a quote
 * never closed fails the read naming the row where it opened, after the rows before it.
 */
export async function* readCsvRows(file: string, shape: TextShape, name: string, plainDelimited: boolean, guard?: ReadGuard): AsyncGenerator<RowBatch> {
  const input = new FileChunks(file, CHUNK_BYTES, guard);
  const batches = plainDelimited ? readPlainRows(input, shape) : new CsvRowReader(input, shape, name).batches();
  yield* shape.sepLine ? withoutSepLine(batches) : batches;
}

/**
 * Drops row 1, Excel's `sep=X` line (text-sniff.ts), from either reader's batches. The rows after it keep their
 * numbers: messages name the lines a person sees in the file, and the header is row 2.
 */
async function* withoutSepLine(batches: AsyncGenerator<RowBatch>): AsyncGenerator<RowBatch> {
  let dropped = false;
  for await (const batch of batches) {
    if (!dropped && batch.rows.length > 0) {
      dropped = true;
      if (batch.numbers[0] === 1) {
        batch.rows.shift();
        batch.numbers.shift();
      }
    }
    yield batch;
  }
}

class CsvRowReader {
  private readonly framer: RecordFramer;
  private parser: Parser;
  private failure: unknown;
  private rowNumber = 0;
  private batch: RowBatch = { rows: [], numbers: [] };

  constructor(
    private readonly input: FileChunks,
    private readonly shape: TextShape,
    private readonly name: string,
  ) {
    this.framer = new RecordFramer(shape.delimiter.charCodeAt(0));
    this.parser = this.newParser();
  }

  async *batches(): AsyncGenerator<RowBatch> {
    const decoder = this.shape.encoding === 'windows-1251' ? win1251Decoder(true) : undefined;
    const input = this.input;
    try {
      for await (const chunk of input) {
        await this.take(this.framer.push(decoder ? Buffer.from(decoder.write(chunk)) : chunk));
        if (this.batch.rows.length > 0) yield this.takeBatch(input.bytesRead);
      }
      const rest = decoder?.end();
      if (rest) await this.take(this.framer.push(Buffer.from(rest)));
      const { framed, openQuoteRow } = this.framer.end();
      await this.take(framed);
      await this.endParser();
      if (this.batch.rows.length > 0) yield this.takeBatch(input.bytesRead);
      if (openQuoteRow !== null) {
        throw new SheetSourceError(
          `${this.name} row ${openQuoteRow}: a quote opened in this row is never closed, so no row from there on can be read ` +
            `(close the quote, or double a quote meant as text: "")`,
        );
      }
    } finally {
      this.parser.destroy();
    }
  }

  /**
   * A parser for the records from the start of the file, or after a dropped record (then with the record
   * delimiter already found, and no BOM to look for). Errors are fatal: with relax_quotes and relax_column_count
   * csv-parse refuses only an unclosed quote or a record over max_record_size, and the framer keeps both from it.
   */
  private newParser(): Parser {
    const parser = parse({
      delimiter: this.shape.delimiter,
      bom: this.framer.recordCount === 0,
      record_delimiter: this.framer.recordDelimiter,
      relax_quotes: true,
      relax_column_count: true,
      max_record_size: 2 * MAX_ROW_BYTES,
      // keeps each write synchronous: the readable side never pushes back within one chunk
      readableHighWaterMark: 1 << 24,
    } as unknown as Options);
    parser.on('error', (error) => (this.failure ??= error));
    return parser;
  }

  private async take(framed: Framed[]): Promise<void> {
    for (const piece of framed) {
      if (piece instanceof OverlongRecord) {
        await this.endParser();
        this.parser.destroy();
        this.rowNumber = piece.row;
        this.batch.rows.push(overlongRow(piece.bytes, excerptOf(piece.head)));
        this.batch.numbers.push(piece.row);
        this.parser = this.newParser();
      } else {
        this.parser.write(piece);
        this.throwOnFailure();
        this.drain();
      }
    }
  }

  private async endParser(): Promise<void> {
    this.parser.end();
    await finished(this.parser, { readable: false }).catch((error) => (this.failure ??= error));
    this.throwOnFailure();
    this.drain();
  }

  /** every record the parser has produced so far */
  private drain(): void {
    const { rows, numbers } = this.batch;
    for (let record: string[] | null = this.parser.read(); record !== null; record = this.parser.read()) {
      rows.push(record);
      numbers.push(++this.rowNumber);
    }
  }

  private takeBatch(bytesRead: number): RowBatch {
    const batch = this.batch;
    batch.bytesRead = bytesRead;
    this.batch = { rows: [], numbers: [] };
    return batch;
  }

  private throwOnFailure(): void {
    if (this.failure === undefined) return;
    const line = (this.failure as { lines?: number }).lines;
    throw new SheetSourceError(`${this.name}${line ? ` line ${line}` : ''}: cannot read the file as CSV: ${reasonOf(this.failure)}`);
  }
}

/** the start of a dropped row, without a character cut in two */
export function excerptOf(head: Buffer): string {
  return head.toString('utf8').replace(/\uFFFD+$/, '');
}
