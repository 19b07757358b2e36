import type { SheetFormat } from '../settings';

/** Bytes of a file's start looked at to tell a binary file from text. */
export const KIND_SAMPLE_BYTES = 4096;

/** Signatures of binary files that are often exported, saved or downloaded under a spreadsheet's name. */
const SIGNATURES: Array<{ bytes: number[]; kind: string; hint?: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], kind: 'a GIF image' },
  { bytes: [0x52, 0x49, 0x46, 0x46], kind: 'a RIFF file (WebP image, WAV or AVI)' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: 'a PDF document' },
  { bytes: [0x1f, 0x8b], kind: 'a gzip archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: 'a 7-Zip archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], kind: 'a RAR archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'an executable (ELF)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], kind: 'an old Excel 97-2003 workbook, .xls', hint: 'save it as .xlsx or CSV' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: 'a ZIP archive, as an XLSX is', hint: 'an XLSX under another name? then set format: xlsx' },
];

/**
 * Why a file cannot be a sheet of `format` at all, from its size and first bytes: "empty file" or "binary file"
 * with what it looks like, so that the user does not get a message about columns or a header row that the file
 * never had. Null when the file may be one (the readers then tell row by row what is wrong).
 * A delimited text with a few rows of garbage is not binary: its rows are rejected one by one.
 */
export function unreadableAsSheet(name: string, size: number, head: Buffer, format: SheetFormat): string | null {
  if (size === 0) return `${name} is an empty file (0 bytes): there is nothing to read (is an export still writing it?)`;
  const signature = SIGNATURES.find((s) => s.bytes.every((byte, i) => head[i] === byte));
  if (format === 'xlsx') {
    // a ZIP is what an XLSX is; an .xls and text get their own explanation when the XLSX cannot be opened
    if (!signature || signature.bytes[0] === 0x50 || signature.bytes[0] === 0xd0) return null;
    return `${name} is a binary file (${signature.kind}), not an XLSX workbook: is the path right?`;
  }
  if (signature) return `${name} is a binary file (${signature.kind}), not ${format.toUpperCase()} text: ${signature.hint ?? 'is the path right?'}`;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    return `${name} is UTF-16 text (Excel's "Unicode text"), which is not read: save it as "CSV UTF-8"`;
  }
  const sample = head.subarray(0, KIND_SAMPLE_BYTES);
  if (controlBytes(sample) > sample.length / 10) {
    return `${name} is a binary file (${controlBytes(sample)} of its first ${sample.length} bytes are control bytes), not ${format.toUpperCase()} text: is the path right?`;
  }
  if (size <= sample.length && isBlank(sample)) return `${name} is an empty file: it holds only blank lines, no header row`;
  return null;
}

/** NUL and the other C0 controls that text never holds (TAB, LF, FF, CR and ESC aside) */
function controlBytes(sample: Buffer): number {
  let count = 0;
  for (const byte of sample) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) count++;
  return count;
}

/** only a BOM, spaces and line breaks (and delimiters: a row of empty cells is blank too) */
function isBlank(sample: Buffer): boolean {
  const text = sample.toString('utf8').replace(/^\uFEFF/, '');
  return /^[\s,;\t]*$/.test(text);
}
