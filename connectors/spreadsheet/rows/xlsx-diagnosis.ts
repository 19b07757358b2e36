import { promises as fs } from 'fs';

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** the end-of-directory record (22 bytes) sits within the last 64 KB + 22 bytes (its comment is at most 64 KB) */
const TAIL_BYTES = 65_557;

/**
 * Why a file given as XLSX could not be opened, for the message: not an XLSX at all (what it looks like
 * instead), or an XLSX cut short (a ZIP archive without the directory that ends it), or null when neither.
 */
export async function whyNotXlsx(file: string): Promise<string | null> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(512, size));
    await handle.read(head, 0, head.length, 0);
    if (size === 0) return 'the file is empty';
    if (head.subarray(0, 8).equals(OLE2)) {
      return 'it is not an XLSX file but an old binary Excel workbook (.xls, Excel 97-2003): save it as .xlsx or CSV';
    }
    if (!head.subarray(0, 4).equals(ZIP_LOCAL_HEADER)) return `it is not an XLSX file (an XLSX is a ZIP archive): it ${looksLike(head)}`;
    const tail = Buffer.alloc(Math.min(TAIL_BYTES, size));
    await handle.read(tail, 0, tail.length, size - tail.length);
    if (tail.lastIndexOf(ZIP_END_OF_DIRECTORY) < 0) {
      return `the XLSX file is truncated: its ${size.toLocaleString('en-US')} bytes end before the archive's directory (an interrupted download or copy?)`;
    }
    return null;
  } finally {
    await handle.close();
  }
}

function looksLike(head: Buffer): string {
  const text = head.toString('utf8');
  if (/^\s*</.test(text)) return 'starts like an HTML or XML page';
  if (head.includes(0)) return 'holds binary data of another kind';
  return 'starts like text (a CSV saved under an .xlsx name? then set format: csv)';
}
