import { StringDecoder } from 'string_decoder';
import type { TextShape } from '../source/text-sniff';
import type { FileChunks } from './file-chunks';
import { win1251Decoder } from './legacy-decoder';
import { MAX_ROW_BYTES, overlongRow, RowBatch } from './sheet-rows';

const LF = 0x0a;
const EXCERPT_BYTES = 256;

/**
 * Rows of a file the scan found plain (FileScan.plainDelimited: no quote, no carriage return), one batch per
 * file chunk, split on '\n' and the delimiter. Same records as csv-parse gives with `bom` and
 * `relax_column_count`: a leading UTF-8 BOM is dropped, an empty line is one empty cell, a final newline ends
 * the last record without adding one; several times faster and with far less garbage. A line over
 * MAX_ROW_BYTES is not kept: it is skipped as it streams by and rejected in its place (a SkippedRecord).
 */
export async function* readPlainRows(input: FileChunks, shape: TextShape): AsyncGenerator<RowBatch> {
  const newDecoder = (atStart = false) => (shape.encoding === 'windows-1251' ? win1251Decoder(atStart) : new StringDecoder('utf8'));
  let decoder = newDecoder(true);
  const delimiter = shape.delimiter;
  let carry = '';
  /** bytes of the line being read (the carry, or the skipped line) */
  let lineBytes = 0;
  /** the first bytes of a line over the limit, while the rest of it is skipped */
  let skipping: Buffer | null = null;
  let rowNumber = 0;
  let first = true;
  for await (const read of input) {
    let chunk = read;
    const batch: RowBatch = { rows: [], numbers: [], bytesRead: input.bytesRead };
    let newline = chunk.indexOf(LF);
    if (skipping === null && lineBytes + (newline < 0 ? chunk.length : newline) > MAX_ROW_BYTES) {
      // the carry and this chunk up to the line's end are dropped; the decoder's partial character with them
      skipping = Buffer.from(carry.slice(0, EXCERPT_BYTES));
      if (skipping.length < EXCERPT_BYTES) skipping = Buffer.concat([skipping, chunk.subarray(0, EXCERPT_BYTES - skipping.length)]);
      carry = '';
      decoder = newDecoder();
    }
    if (skipping !== null) {
      if (newline < 0) {
        lineBytes += chunk.length;
        continue;
      }
      batch.rows.push(overlongRow(lineBytes + newline + 1, skipping.toString('utf8').replace(/\uFFFD+$/, '')));
      batch.numbers.push(++rowNumber);
      skipping = null;
      lineBytes = 0;
      first = false;
      chunk = chunk.subarray(newline + 1);
      newline = chunk.indexOf(LF);
    }
    let text = carry + decoder.write(chunk);
    if (first && text !== '') {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (newline < 0) {
      carry = text;
      lineBytes += chunk.length;
      if (batch.rows.length > 0) yield batch;
      continue;
    }
    const end = text.lastIndexOf('\n');
    carry = text.slice(end + 1);
    lineBytes = chunk.length - chunk.lastIndexOf(LF) - 1;
    const lines = text.slice(0, end).split('\n');
    // arrays of their final length (a row rejected for its length may come first)
    const at = batch.rows.length;
    const rows: RowBatch['rows'] = new Array(at + lines.length);
    const numbers: number[] = new Array(at + lines.length);
    if (at > 0) {
      rows[0] = batch.rows[0];
      numbers[0] = batch.numbers[0];
    }
    for (let i = 0; i < lines.length; i++) {
      rows[at + i] = lines[i].split(delimiter);
      numbers[at + i] = ++rowNumber;
    }
    batch.rows = rows;
    batch.numbers = numbers;
    yield batch;
  }
  if (skipping !== null) {
    yield { rows: [overlongRow(lineBytes, skipping.toString('utf8').replace(/\uFFFD+$/, ''))], numbers: [++rowNumber], bytesRead: input.bytesRead };
    return;
  }
  let rest = carry + (decoder.end() ?? '');
  if (first && rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
  if (rest !== '') yield { rows: [rest.split(delimiter)], numbers: [++rowNumber], bytesRead: input.bytesRead };
}
