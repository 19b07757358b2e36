import { createHash } from 'crypto';
import { createWriteStream, promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { pipeline } from 'stream/promises';
import { Readable, Transform } from 'stream';
import { displayUrl, reasonOf, SheetSourceError } from './sheet-error';
import { formatFromContentType, looksLikeHtml } from './format-detection';
import type { SheetFormat } from '../settings';

const TIMEOUT_MS = 120_000;

export interface DownloadedSheet {
  file: string;
  contentType?: string;
  format?: SheetFormat;
}

/**
 * Downloads a sheet URL (e.g. a published Google Sheets CSV link) into the work folder, streamed to disk so a
 * large export never sits in memory. An HTTP error or an HTML page (a login or error page) is a connection
 * error naming the URL, never a file of garbage rows.
 */
export async function downloadSheet(url: string, stream: string, workDir?: string, timeoutMs = TIMEOUT_MS): Promise<DownloadedSheet> {
  const folder = workDir ?? tmpdir();
  // the sheet's rows: its owner's only, as the daemon's other files in data_dir
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, `spreadsheet-${stream}-${createHash('sha1').update(url).digest('hex').slice(0, 12)}.download`);
  const shown = displayUrl(url);
  let response;
  // required here: a sheet read from a local file (and the read thread it runs on) never loads the HTTP client
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: axios } = require('axios') as typeof import('axios');
  try {
    response = await axios.get<Readable>(url, {
      responseType: 'stream',
      timeout: timeoutMs,
      maxRedirects: 5,
      validateStatus: () => true,
      headers: { Accept: 'text/csv, text/tab-separated-values, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, */*' },
    });
  } catch (error) {
    throw new SheetSourceError(`cannot download ${shown}: ${reasonOf(error)}`);
  }
  const contentType = String(response.headers['content-type'] ?? '');
  if (response.status < 200 || response.status >= 300) {
    response.data.destroy();
    throw new SheetSourceError(`${shown} answered HTTP ${response.status} instead of a spreadsheet`);
  }
  // the body has a watch of its own (a server that sent its headers, then nothing): axios's would abort it as a
  // reset connection ("aborted"), and the message would not say that the download timed out
  (response.request as { setTimeout?: (ms: number) => void } | undefined)?.setTimeout?.(0);
  const counter = byteCounter(timeoutMs);
  const short = () => shortBody(response.headers, counter.bytes);
  try {
    await pipeline(response.data, counter, createWriteStream(file, { mode: 0o600 }));
    // the mode above applies to a new file only: an earlier download's keeps the one it was made with
    await fs.chmod(file, 0o600);
  } catch (error) {
    await fs.rm(file, { force: true });
    const stalled = counter.stalled ? `no data for ${timeoutMs % 1000 ? `${timeoutMs} ms` : `${timeoutMs / 1000} s`} (timeout): ` : '';
    throw new SheetSourceError(`download of ${shown} failed: ${stalled}${short() ?? (stalled ? `${counter.bytes.toLocaleString('en-US')} bytes came` : reasonOf(error))}`);
  } finally {
    counter.stopWatch();
  }
  const cut = short();
  if (cut) {
    await fs.rm(file, { force: true });
    throw new SheetSourceError(`download of ${shown} failed: ${cut}; nothing of it is read, and the next run downloads it again`);
  }
  await rejectHtml(file, contentType, shown);
  return { file, contentType, format: formatFromContentType(contentType) };
}

type ByteCounter = Transform & { bytes: number; stalled: boolean; stopWatch: () => void };

/** Counts the bytes of the body as they pass, and fails it once no byte came for `idleMs` (`stalled`). */
function byteCounter(idleMs: number): ByteCounter {
  let timer: NodeJS.Timeout | undefined;
  const watch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      counter.stalled = true;
      counter.destroy(new Error('stalled'));
    }, idleMs);
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counter.bytes += chunk.length;
      watch();
      done(null, chunk);
    },
  }) as ByteCounter;
  counter.bytes = 0;
  counter.stalled = false;
  counter.stopWatch = () => clearTimeout(timer);
  watch();
  return counter;
}

/**
 * A body that ended before its Content-Length: the server or a proxy dropped the connection, or closed it
 * early. The file would be a torn export. A compressed body (decompressed by axios) is not compared: its
 * Content-Length counts the compressed bytes, and a cut one fails in the decompression.
 */
function shortBody(headers: Record<string, unknown>, received: number): string | null {
  const encoding = String(headers['content-encoding'] ?? 'identity').toLowerCase();
  const announced = Number(headers['content-length']);
  if (encoding !== 'identity' || !Number.isSafeInteger(announced) || received >= announced) return null;
  return `its body ended after ${received.toLocaleString('en-US')} of the ${announced.toLocaleString('en-US')} bytes its Content-Length announced`;
}

async function rejectHtml(file: string, contentType: string, shown: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(512);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  await handle.close();
  if (contentType.toLowerCase().includes('text/html') || looksLikeHtml(head.subarray(0, bytesRead))) {
    await fs.rm(file, { force: true });
    throw new SheetSourceError(
      `${shown} answered an HTML page (${contentType || 'no content type'}) instead of CSV/XLSX; ` +
        'is the link published and public?',
    );
  }
}
