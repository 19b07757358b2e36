import { promises as fs } from 'fs';
import pLimit from 'p-limit';
import { Worker } from 'worker_threads';

/** What one pass over a sheet's bytes tells before it is parsed. */
export interface FileScan {
  /**
   * sha256 of the file's bytes, prefixed with a digest of the stream's settings: a byte-identical file read
   * with the same mapping is recognised without parsing, and a mapping change forces a real read.
   */
  hash: string;
  /**
   * No quote character and no carriage return: the rows of such a delimited text can be split directly
   * (plain-csv-rows) instead of going through csv-parse.
   */
  plainDelimited: boolean;
  /**
   * Where the first byte that is not valid UTF-8 is, null when every byte of the file is (text-sniff.ts decides
   * the encoding by it: a file whose first 64 KB are plain ASCII may hold Windows-1251 text after them).
   */
  invalidUtf8At: number | null;
  /** the file as the scan found it when it began (the reader's ReadGuard compares against it) */
  stamp: FileStamp;
  /** set when the file changed while it was scanned: what changed (the hash is then of no version of it) */
  changed: string | null;
  /**
   * The file's identity as the scan found it (device, inode, size, modification and change times in ns), when a
   * later run may trust it instead of hashing the file again (quick-stamp.ts); null when the file had been
   * modified less than RACY_MS before the scan began (a write in the same tick of a coarse clock could then leave
   * every field as it was) or changed during the scan.
   */
  quickStamp: string | null;
  /** set on a scan started ahead, while an earlier stream of the run was read (ScansAhead) */
  scannedAhead?: boolean;
}

/** Size, modification time and inode of a file (fstat of the descriptor that read it). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * The pass runs on a worker thread: hashing a 230 MB file took ~0.55 s of the main thread, and the scan for
 * quotes another ~0.4 s, in a sync whose main thread is its bottleneck. Synchronous reads into one buffer: the
 * thread has nothing else to do, and a stream's fresh buffer per read kept tens of MB alive between collections.
 * Plain JavaScript, so that it runs the same from `dist/` and under ts-jest.
 *
 * UTF-8 is checked by Node's native isUtf8 a read at a time, until the first invalid byte (a legacy file stops
 * paying at its first letter); a character cut by the end of a read is checked whole with the next read's bytes.
 * On a 200 MB file it costs about 0.01 s of CPU beside sha256's 0.15 s (README, "Which encoding").
 */
const SCAN_SOURCE = `
const { parentPort, workerData } = require('worker_threads');
const { createHash } = require('crypto');
const { isUtf8 } = require('buffer');
const { closeSync, fstatSync, openSync, readSync } = require('fs');

/** bytes of the character a byte starts: 1 for ASCII and stray bytes (isUtf8 judges those) */
const lengthOf = (b) => (b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1);

/** where a character cut by the end of bytes starts (bytes.length when none is) */
function cutAt(bytes, from) {
  for (let k = 1; k <= 3 && bytes.length - k >= from; k++) {
    const b = bytes[bytes.length - k];
    if ((b & 0xc0) === 0x80) continue;
    return lengthOf(b) > k ? bytes.length - k : bytes.length;
  }
  return bytes.length;
}

/** the first byte of bytes[i, end) that starts no valid character (only once isUtf8 has said one does) */
function firstInvalid(b, i, end) {
  while (i < end) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (n === 0 || i + n >= end) return i;
    for (let k = 1; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    const d = b[i + 1];
    if ((c === 0xe0 && d < 0xa0) || (c === 0xed && d > 0x9f) || (c === 0xf0 && d < 0x90) || (c === 0xf4 && d > 0x8f)) return i;
    i += n + 1;
  }
  return end;
}

class Utf8Check {
  constructor() { this.invalidAt = null; this.cut = null; this.cutAt = 0; }
  /** the bytes of the file from offset on */
  add(bytes, offset) {
    if (this.invalidAt !== null) return;
    let from = 0;
    if (this.cut !== null) {
      const length = lengthOf(this.cut[0]);
      from = Math.min(length - this.cut.length, bytes.length);
      const whole = Buffer.concat([this.cut, bytes.subarray(0, from)]);
      if (whole.length < length) return void (this.cut = whole);
      this.cut = null;
      if (!isUtf8(whole)) return void (this.invalidAt = this.cutAt);
    }
    const to = cutAt(bytes, from);
    if (!isUtf8(bytes.subarray(from, to))) return void (this.invalidAt = offset + firstInvalid(bytes, from, to));
    if (to < bytes.length) {
      this.cut = Buffer.from(bytes.subarray(to));
      this.cutAt = offset + to;
    }
  }
  /** a character still cut at the end of the file is invalid */
  end() {
    if (this.invalidAt === null && this.cut !== null) this.invalidAt = this.cutAt;
    return this.invalidAt;
  }
}

try {
  const { file, digest } = workerData;
  const hash = createHash('sha256');
  hash.update(digest);
  hash.update('\\0');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, 'r');
  let plain = true;
  const utf8 = new Utf8Check();
  let total = 0;
  let before, after, exact;
  const startedAt = Date.now();
  try {
    before = fstatSync(fd);
    exact = fstatSync(fd, { bigint: true });
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const bytes = read === buffer.length ? buffer : buffer.subarray(0, read);
      hash.update(bytes);
      utf8.add(bytes, total);
      total += read;
      if (!plain) continue;
      if (bytes.indexOf(0x22) >= 0 || bytes.indexOf(0x0d) >= 0) plain = false;
    }
    after = fstatSync(fd);
  } finally {
    closeSync(fd);
  }
  const stamp = { size: before.size, mtimeMs: before.mtimeMs, ino: before.ino };
  const changed = after.size !== before.size ? 'its size went from ' + before.size + ' to ' + after.size + ' bytes'
    : after.mtimeMs !== before.mtimeMs ? 'it was modified at ' + new Date(after.mtimeMs).toISOString()
    : total !== before.size ? total + ' bytes were read of the ' + before.size + ' it had' : null;
  const racy = Math.max(before.mtimeMs, before.ctimeMs) > startedAt - workerData.racyMs;
  const quickStamp = changed || racy ? null : [exact.dev, exact.ino, exact.size, exact.mtimeNs, exact.ctimeNs].join(':');
  parentPort.postMessage({ hash: hash.digest('hex'), plainDelimited: plain, invalidUtf8At: utf8.end(), stamp, changed, quickStamp });
} catch (error) {
  parentPort.postMessage({ error: { message: String(error && error.message), code: error && error.code } });
}
`;

/**
 * How long before a scan a file must have been last written for its stamp to be trusted later: FAT's modification
 * times have a 2-second grain, ext4's and most others' nanoseconds (git's "racy clean" entries, the same idea).
 */
export const RACY_MS = 3000;

/**
 * Scans running at once, in the whole process: each worker costs ~10 MB of memory (16 at once took 160 MB more),
 * and two keep both cores of a small machine busy. Many connections starting together queue here.
 */
export const MAX_PARALLEL_SCANS = 2;
const scanSlots = pLimit(MAX_PARALLEL_SCANS);

/**
 * A run's scans started ahead of their read (the spreadsheet connector's session: `open` makes it, `close` ends
 * it), by file and settings digest, with the file's identity when they started. Closing forgets them: a scan still
 * waiting for a slot never starts, a running one's worker is stopped.
 */
export class ScansAhead {
  private readonly started = new Map<string, Promise<{ stamp: string; scan: Promise<FileScan> }>>();
  private readonly closing = new AbortController();

  /**
   * Starts the scan of a file that a later stream of this run reads, so that it runs while this stream is sent.
   * `scanFile` uses it only if the file's size, modification time and inode are still those it started with.
   * A scan already started for the same file (by an earlier stream of the run) is kept while the file is unchanged.
   * Settles when the scan has ended, whatever its outcome.
   */
  scanAhead(file: string, settingsDigest: string): Promise<void> {
    if (this.closing.signal.aborted) return Promise.resolve();
    const key = `${file}\0${settingsDigest}`;
    const previous = this.started.get(key);
    const started = (async () => {
      const stamp = await stampOf(file);
      const earlier = previous ? await previous.catch(() => null) : null;
      if (earlier && earlier.stamp === stamp) return earlier;
      const scan = runScan(file, settingsDigest, this.closing.signal);
      // a failed scan is not kept; scanFile reports the failure if the stream is read at all
      scan.catch(() => this.started.get(key) === started && this.started.delete(key));
      return { stamp, scan };
    })();
    this.started.set(key, started);
    // a missing file: resolveSheet says so when the stream is read
    return started.then((entry) => entry.scan).then(() => undefined, () => undefined);
  }

  /** The scan started ahead for `file` with `settingsDigest`, taken once; undefined when there is none. */
  take(file: string, settingsDigest: string): Promise<{ stamp: string; scan: Promise<FileScan> }> | undefined {
    const key = `${file}\0${settingsDigest}`;
    const started = this.started.get(key);
    this.started.delete(key);
    return started;
  }

  /** The run has ended: forgets every scan, stops those still waiting or running. */
  close(): void {
    this.started.clear();
    this.closing.abort();
  }
}

/**
 * The scan of `file` read with `settingsDigest`: the one the run's session started ahead if the file has not
 * changed since, else a new one.
 */
export async function scanFile(file: string, settingsDigest: string, ahead?: ScansAhead): Promise<FileScan> {
  const started = ahead?.take(file, settingsDigest);
  const early = started ? await started.catch(() => null) : null;
  if (early && early.stamp === (await stampOf(file))) return { ...(await early.scan), scannedAhead: true };
  return runScan(file, settingsDigest);
}

async function stampOf(file: string): Promise<string> {
  const stat = await fs.stat(file, { bigint: true });
  return `${stat.size}:${stat.mtimeNs}:${stat.ino}`;
}

/** Scans running now (at most MAX_PARALLEL_SCANS; the others wait). */
export function scansRunning(): number {
  return scanSlots.activeCount;
}

/** A new scan of the file, never one made ahead (a read's check at its end); `signal` stops it (a session closing). */
export function runScan(file: string, digest: string, signal?: AbortSignal): Promise<FileScan> {
  return scanSlots(() => scanOnWorker(file, digest, signal));
}

function scanOnWorker(file: string, digest: string, signal?: AbortSignal): Promise<FileScan> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(`the scan of ${file} was cancelled (its run ended)`));
    const worker = new Worker(SCAN_SOURCE, {
      eval: true,
      workerData: { file, digest, racyMs: RACY_MS },
      // its heap holds next to nothing; V8's defaults would reserve far more of the process's memory
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
    });
    let answered = false;
    const cancel = () => {
      answered = true;
      void worker.terminate();
      reject(new Error(`the scan of ${file} was cancelled (its run ended)`));
    };
    signal?.addEventListener('abort', cancel, { once: true });
    const settle = () => {
      answered = true;
      signal?.removeEventListener('abort', cancel);
    };
    worker.once('message', (message: FileScan | { error: { message: string; code?: string } }) => {
      settle();
      if ('error' in message) reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else resolve(message);
    });
    worker.once('error', (error) => {
      settle();
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the scan of ${file} ended without an answer (exit code ${code})`));
      signal?.removeEventListener('abort', cancel);
    });
  });
}
