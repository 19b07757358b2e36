import { createReadStream } from 'fs';
import iconv from 'iconv-lite';
import { StringDecoder } from 'string_decoder';
import type { TextShape } from '../source/text-sniff';
import { RowBatch } from './sheet-rows';

const SCAN_BYTES = 1 << 20;

/**
 * True when the file has no quote character, no carriage return and no line longer than `maxLineBytes`.
 * Such a file is read exactly as csv-parse reads it (with our options) by splitting lines on '\n' and cells on
 * the delimiter, several times faster and with far less garbage; everything else goes through csv-parse.
 * The scan costs one more pass over the file (memchr speed, from the page cache after the content hash).
 */
export async function isPlainDelimited(file: string, maxLineBytes: number): Promise<boolean> {
  let lineBytes = 0;
  const input = createReadStream(file, { highWaterMark: SCAN_BYTES });
  try {
    for await (const chunk of input) {
      const bytes = chunk as Buffer;
      if (bytes.indexOf(0x22) >= 0 || bytes.indexOf(0x0d) >= 0) return false;
      let from = 0;
      for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a, from)) {
        if (lineBytes + newline - from > maxLineBytes) return false;
        lineBytes = 0;
        from = newline + 1;
      }
      lineBytes += bytes.length - from;
      if (lineBytes > maxLineBytes) return false;
    }
    return true;
  } finally {
    input.destroy();
  }
}

/**
 * Rows of a file `isPlainDelimited` accepted, one batch per file chunk. Same records as csv-parse gives with
 * `bom`, `relax_column_count`: a leading UTF-8 BOM is dropped, an empty line is one empty cell, a final
 * newline ends the last record without adding one.
 */
export async function* readPlainRows(file: string, shape: TextShape, chunkBytes: number): AsyncGenerator<RowBatch> {
  const decoder = shape.encoding === 'windows-1251' ? iconv.getDecoder('win1251') : new StringDecoder('utf8');
  const input = createReadStream(file, { highWaterMark: chunkBytes });
  const delimiter = shape.delimiter;
  let carry = '';
  let rowNumber = 0;
  let first = true;
  try {
    for await (const chunk of input) {
      let text = carry + decoder.write(chunk as Buffer);
      if (first && text !== '') {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      const end = text.lastIndexOf('\n');
      if (end < 0) {
        carry = text;
        continue;
      }
      carry = text.slice(end + 1);
      const lines = text.slice(0, end).split('\n');
      const batch: RowBatch = { rows: new Array(lines.length), numbers: new Array(lines.length) };
      for (let i = 0; i < lines.length; i++) {
        batch.rows[i] = lines[i].split(delimiter);
        batch.numbers[i] = ++rowNumber;
      }
      yield batch;
    }
    let rest = carry + (decoder.end() ?? '');
    if (first && rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
    if (rest !== '') yield { rows: [rest.split(delimiter)], numbers: [++rowNumber] };
  } finally {
    input.destroy();
  }
}
