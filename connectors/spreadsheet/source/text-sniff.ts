import chardet from 'chardet';
import { promises as fs } from 'fs';
import iconv from 'iconv-lite';
import type { SheetEncoding, SheetSource } from '../settings';
import { SheetSourceError } from './sheet-error';

const SAMPLE_BYTES = 64 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export interface TextShape {
  encoding: SheetEncoding;
  /** one of DELIMITERS, or any the file's `sep=` line names */
  delimiter: string;
  /** the file's first line is Excel's `sep=X`: it is not a row (the readers drop it, and still count it) */
  sepLine: boolean;
  /** what chardet said when it was asked (for the log) */
  detectedBy: string;
}

/**
 * Encoding and delimiter of a delimited text file. The encoding is the settings', else the whole file's: the
 * scan (file-scan.ts) tells where its first byte that is not UTF-8 is, if any (`invalidUtf8At`; undefined when the
 * file was not scanned, a peek for `check`, then the first 64 KB alone decide). Valid throughout means UTF-8;
 * otherwise wholeFileEncoding weighs the start and the bytes around that first invalid one. As we support one
 * legacy code page, anything not UTF-8 is read as Windows-1251 (chardet's guess is logged).
 * The delimiter is the settings', else the one a `sep=X` first line names, else TAB for a TSV, else the most
 * frequent of , ; TAB outside quotes on the header line.
 */
export async function sniffText(file: string, source: SheetSource, tsv: boolean, name: string, invalidUtf8At?: number | null): Promise<TextShape> {
  const sample = await readSample(file, 0);
  const { encoding, detectedBy } = source.encoding
    ? { encoding: source.encoding, detectedBy: 'settings' }
    : invalidUtf8At === undefined
      ? detectEncoding(sample, name)
      : await wholeFileEncoding(file, name, sample, invalidUtf8At);
  const text = decodeSample(sample, encoding);
  const named = sepLineDelimiter(text);
  const delimiter = source.delimiter ?? named ?? (tsv ? '\t' : detectDelimiter(headerLine(text, source.header_row ?? 1)));
  return { encoding, delimiter, sepLine: named !== null, detectedBy };
}

/**
 * Excel, and the CRM exports made for it, may start a CSV with the line `sep=;` (or `sep=,`, `sep=<TAB>`) so that
 * Excel splits it: the delimiter it names, or null when the first line (BOM removed) is not one. The delimiter
 * must be one ASCII character and no quote or line break: the record framer compares it with single bytes.
 */
export function sepLineDelimiter(text: string): string | null {
  const match = /^sep=([\t\x20-\x21\x23-\x7e])(?:\r\n|\n|\r|$)/.exec(text);
  return match ? match[1] : null;
}

async function readSample(file: string, at: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, at);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

type EncodingDecision = { encoding: SheetEncoding; detectedBy: string };

/** The encoding of a file not scanned (a peek at its header, for `check`), from its first 64 KB alone. */
export function detectEncoding(sample: Buffer, name = 'the file'): EncodingDecision {
  const bom = hasBom(sample);
  if (isValidUtf8(sample)) return { encoding: 'utf-8', detectedBy: bom ? 'BOM' : 'valid UTF-8' };
  const { valid, invalid } = countUtf8Sequences(bom ? sample.subarray(3) : sample);
  // mostly UTF-8 with a few foreign rows (each count is of characters): read as UTF-8 so those rows are
  // rejected rather than the whole file garbled; a real Windows-1251 text has next to no valid sequences
  if (valid > 0 && valid >= invalid) return { encoding: 'utf-8', detectedBy: `mostly UTF-8 (${invalid} invalid sequences)` };
  const guess = chardet.detect(sample) ?? 'unknown';
  if (bom) throw bomBeforeLegacyText(name, `chardet says ${guess}`);
  return { encoding: 'windows-1251', detectedBy: `chardet: ${guess}` };
}

/** A UTF-8 byte-order mark before text that is not UTF-8: neither trusted nor overridden on a guess. */
function bomBeforeLegacyText(name: string, what: string): SheetSourceError {
  return new SheetSourceError(
    `${name} starts with a UTF-8 byte-order mark, but its text is not UTF-8 (${what}): saved as Windows-1251 behind the mark? ` +
      'set encoding: windows-1251 (or encoding: utf-8 to read it as UTF-8 and reject each row with bytes that are not)',
  );
}

/**
 * The encoding of a scanned file, `invalidUtf8At` its first byte that is not UTF-8 (null: none is). The first
 * 64 KB alone are not enough: an export's first thousands of rows may be ASCII (ids, dates, amounts) and its
 * Cyrillic begin further on, which read as UTF-8 rejects every such row. A start that is UTF-8 with non-ASCII
 * letters still decides (a legacy text's letters are not valid UTF-8 for 64 KB); otherwise the start and the 64 KB
 * around the first invalid byte are weighed: valid UTF-8 characters at least as many as invalid bytes is a UTF-8
 * file with a few foreign rows (read as UTF-8, those rows rejected); fewer is a legacy file (chardet names it from
 * the bytes around the invalid one, where its letters are). A UTF-8 byte-order mark on a file that is not UTF-8 is not
 * trusted, nor overridden on a guess: the stream fails saying what to set.
 */
export async function wholeFileEncoding(file: string, name: string, head: Buffer, invalidUtf8At: number | null): Promise<EncodingDecision> {
  const bom = hasBom(head);
  if (invalidUtf8At === null) return { encoding: 'utf-8', detectedBy: bom ? 'BOM' : 'valid UTF-8' };
  const start = countUtf8Sequences(bom ? head.subarray(3) : head);
  const where = `byte ${invalidUtf8At.toLocaleString('en-US')}`;
  // 64 KB of UTF-8 with letters beyond ASCII, the foreign bytes after: rows pasted from another export. Read as
  // Windows-1251, the UTF-8 rows would be sent garbled, unseen; read as UTF-8, the pasted ones are rejected, named
  if (invalidUtf8At >= head.length && start.valid > 0) return { encoding: 'utf-8', detectedBy: `UTF-8 (not UTF-8 from ${where}: those rows are rejected)` };
  const around = invalidUtf8At + 3 <= SAMPLE_BYTES ? head : await readSample(file, Math.max(0, invalidUtf8At - SAMPLE_BYTES / 2));
  const near = around === head ? { valid: 0, invalid: 0 } : countUtf8Sequences(around);
  const valid = start.valid + near.valid;
  const invalid = start.invalid + near.invalid;
  if (valid > 0 && valid >= invalid) return { encoding: 'utf-8', detectedBy: `mostly UTF-8 (not UTF-8 from ${where}: ${invalid} invalid sequences)` };
  const guess = chardet.detect(around) ?? 'unknown';
  if (bom) throw bomBeforeLegacyText(name, `from ${where} on; chardet says ${guess}`);
  return { encoding: 'windows-1251', detectedBy: `chardet: ${guess}${invalidUtf8At >= SAMPLE_BYTES ? `, not UTF-8 from ${where}` : ''}` };
}

function hasBom(sample: Buffer): boolean {
  return sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf;
}

/** valid multi-byte UTF-8 sequences and stray non-ASCII bytes; a sequence cut at the sample's end counts as neither */
function countUtf8Sequences(sample: Buffer): { valid: number; invalid: number } {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i];
    if (b < 0x80) continue;
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) {
      invalid++;
      continue;
    }
    if (i + length > sample.length) break;
    let ok = true;
    for (let k = 1; k < length; k++) if ((sample[i + k] & 0xc0) !== 0x80) ok = false;
    if (ok) {
      valid++;
      i += length - 1;
    } else invalid++;
  }
  return { valid, invalid };
}

/** `stream: true` lets a multi-byte character cut at the 64 KB boundary pass */
function isValidUtf8(sample: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function decodeSample(sample: Buffer, encoding: SheetEncoding): string {
  // a UTF-8 mark before Windows-1251 text (read so by the settings) is no part of it: `п»ї` decoded
  const text = encoding === 'utf-8' ? sample.toString('utf8') : iconv.decode(hasBom(sample) ? sample.subarray(3) : sample, 'win1251');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function headerLine(text: string, headerRow: number): string {
  const lines = text.split(/\r\n|\n|\r/, headerRow);
  return lines[headerRow - 1] ?? lines[0] ?? '';
}

export function detectDelimiter(line: string): Delimiter {
  const counts = [0, 0, 0];
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted) {
      const at = DELIMITERS.indexOf(c as Delimiter);
      if (at >= 0) counts[at]++;
    }
  }
  let best = 0;
  for (let i = 1; i < counts.length; i++) if (counts[i] > counts[best]) best = i;
  return DELIMITERS[best];
}
