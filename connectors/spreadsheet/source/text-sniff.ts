import chardet from 'chardet';
import { promises as fs } from 'fs';
import iconv from 'iconv-lite';
import type { SheetEncoding, SheetSource } from '../settings';

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
 * Encoding and delimiter of a delimited text file, from its first 64 KB: a BOM or valid UTF-8 means UTF-8;
 * otherwise chardet decides, and as we support one legacy code page, anything else is read as Windows-1251.
 * The delimiter is the settings', else the one a `sep=X` first line names, else TAB for a TSV, else the most
 * frequent of , ; TAB outside quotes on the header line.
 */
export async function sniffText(file: string, source: SheetSource, tsv: boolean): Promise<TextShape> {
  const sample = await readSample(file);
  const { encoding, detectedBy } = source.encoding
    ? { encoding: source.encoding, detectedBy: 'settings' }
    : detectEncoding(sample);
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

async function readSample(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function detectEncoding(sample: Buffer): { encoding: SheetEncoding; detectedBy: string } {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return { encoding: 'utf-8', detectedBy: 'BOM' };
  if (isValidUtf8(sample)) return { encoding: 'utf-8', detectedBy: 'valid UTF-8' };
  const { valid, invalid } = countUtf8Sequences(sample);
  // mostly UTF-8 with a few foreign rows (each count is of characters): read as UTF-8 so those rows are
  // rejected rather than the whole file garbled; a real Windows-1251 text has next to no valid sequences
  if (valid > 0 && valid >= invalid) return { encoding: 'utf-8', detectedBy: `mostly UTF-8 (${invalid} invalid sequences)` };
  const guess = chardet.detect(sample) ?? 'unknown';
  return { encoding: 'windows-1251', detectedBy: `chardet: ${guess}` };
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
  const text = encoding === 'utf-8' ? sample.toString('utf8') : iconv.decode(sample, 'win1251');
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
