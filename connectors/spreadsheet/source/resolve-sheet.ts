import { promises as fs } from 'fs';
import { basename, resolve } from 'path';
import type { SheetFormat, SheetSource } from '../settings';
import { downloadSheet } from './download';
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
    const format = source.format ?? downloaded.format ?? formatFromName(source.path) ?? (await sniff(downloaded.file));
    return { file: downloaded.file, name: displayUrl(source.path), format };
  }
  const file = localSheetPath(source)!;
  try {
    await fs.access(file, fs.constants?.R_OK);
  } catch {
    throw new SheetSourceError(`file ${source.path} does not exist or is not readable${lookedAt(source.path, file)}`);
  }
  const head = await readHead(file);
  if (looksLikeHtml(head)) {
    throw new SheetSourceError(`${source.path} is an HTML page, not CSV/XLSX (a saved error or login page?)`);
  }
  const format = source.format ?? formatFromName(file) ?? formatFromContent(head);
  return { file, name: basename(file), format };
}

/** Where a relative path was looked for (the working directory decides); nothing for an absolute one. */
export function lookedAt(path: string, file: string): string {
  return path === file ? '' : ` (looked at ${file})`;
}

/** The absolute path of a sheet on the local disk; null for a URL. */
export function localSheetPath(source: SheetSource): string | null {
  return isUrl(source.path) ? null : resolve(process.cwd(), source.path);
}

async function sniff(file: string): Promise<SheetFormat> {
  return formatFromContent(await readHead(file));
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
