import { extname } from 'path';
import type { SheetFormat } from '../settings';

/** Format from a file name or URL path: .csv, .tsv/.tab, .xlsx/.xlsm; Google's `output=`/`format=` query. */
export function formatFromName(name: string): SheetFormat | undefined {
  let pathPart = name;
  let query = '';
  try {
    const url = new URL(name);
    pathPart = url.pathname;
    query = url.searchParams.get('output') ?? url.searchParams.get('format') ?? '';
  } catch {
    // a local path
  }
  const fromQuery = normalise(query);
  if (fromQuery) return fromQuery;
  return normalise(extname(pathPart).slice(1));
}

/** Format from an HTTP content type. */
export function formatFromContentType(contentType: string | undefined): SheetFormat | undefined {
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('spreadsheetml')) return 'xlsx';
  if (type.includes('tab-separated')) return 'tsv';
  if (type.includes('csv')) return 'csv';
  return undefined;
}

/** A ZIP signature means XLSX; anything else is read as delimited text. */
export function formatFromContent(head: Buffer): SheetFormat {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04 ? 'xlsx' : 'csv';
}

/** An HTML page where a spreadsheet was expected (a login or error page behind a URL). */
export function looksLikeHtml(head: Buffer): boolean {
  const start = head.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head') || start.startsWith('<body');
}

function normalise(value: string): SheetFormat | undefined {
  const v = value.toLowerCase();
  if (v === 'csv') return 'csv';
  if (v === 'tsv' || v === 'tab') return 'tsv';
  if (v === 'xlsx' || v === 'xlsm') return 'xlsx';
  return undefined;
}
