import { promises as fs } from 'fs';
import { basename, resolve } from 'path';
import type { SheetFormat, SheetSource } from '../settings';
import { downloadSheet } from './download';
import { KIND_SAMPLE_BYTES, unreadableAsSheet } from './file-kind';
import { formatFromContent, formatFromName, looksLikeHtml } from './format-detection';
import { displayUrl, isUrl, SheetSourceError } from './sheet-error';

/** A sheet ready to read from the local disk. */
export interface LocalSheet {
  file: string;
  /** for messages and refs: the file's base name, or the URL without its query */
  name: string;
  format: SheetFormat;
}

/** Finds (or downloads) the sheet of one stream and settles its format. */
export async function resolveSheet(source: SheetSource, stream: string, workDir?: string): Promise<LocalSheet> {
  if (isUrl(source.path)) {
    const downloaded = await downloadSheet(source.path, stream, workDir);
    const { head, size } = await readHead(downloaded.file);
    const format = source.format ?? downloaded.format ?? formatFromName(source.path) ?? formatFromContent(head);
    const name = displayUrl(source.path);
    rejectUnreadable(name, size, head, format);
    return { file: downloaded.file, name, format };
  }
  const file = localSheetPath(source)!;
  try {
    await fs.access(file, fs.constants?.R_OK);
  } catch {
    throw new SheetSourceError(`file ${source.path} does not exist or is not readable${lookedAt(source.path, file)}`);
  }
  const { head, size } = await readHead(file);
  if (looksLikeHtml(head)) {
    throw new SheetSourceError(`${source.path} is an HTML page, not CSV/XLSX (a saved error or login page?)`);
  }
  const format = source.format ?? formatFromName(file) ?? formatFromContent(head);
  rejectUnreadable(basename(file), size, head, format);
  return { file, name: basename(file), format };
}

/** An empty or binary file is named as such, not reported as a sheet without its columns or header. */
function rejectUnreadable(name: string, size: number, head: Buffer, format: SheetFormat): void {
  const why = unreadableAsSheet(name, size, head, format);
  if (why) throw new SheetSourceError(why);
}

/** Where a relative path was looked for (the working directory decides); nothing for an absolute one. */
export function lookedAt(path: string, file: string): string {
  return path === file ? '' : ` (looked at ${file})`;
}

/** The absolute path of a sheet on the local disk; null for a URL. */
export function localSheetPath(source: SheetSource): string | null {
  return isUrl(source.path) ? null : resolve(process.cwd(), source.path);
}

async function readHead(file: string): Promise<{ head: Buffer; size: number }> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(KIND_SAMPLE_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return { head: head.subarray(0, bytesRead), size: (await handle.stat()).size };
  } finally {
    await handle.close();
  }
}
