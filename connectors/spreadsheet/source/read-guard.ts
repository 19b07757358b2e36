import { createHash, Hash } from 'crypto';
import { fstatSync, promises as fs, Stats } from 'fs';
import type { FileScan, FileStamp } from './file-scan';
import { SheetSourceError } from './sheet-error';

/**
 * A file is read whole or not at all. The rows of a sheet come from bytes read after its scan (the content hash
 * that marks the file read); an export tool that rewrites the file in place meanwhile (`: > file`, then the
 * new rows) would otherwise leave a read of part of one version, or of two, recorded under the scan's hash,
 * and the next run would find the file "unchanged" and read nothing.
 *
 * So every chunk a row reader takes is checked before any row of it goes out: the file behind the reader's
 * descriptor must still have the size, modification time and inode the scan saw (an fstat, ~2 µs). At the end
 * of the bytes, the reader must have read exactly the scanned size, and the sha256 of what it read (the same
 * digest-prefixed hash as the scan's) must equal the scan's hash. Any difference fails the stream with a
 * FileChangedError naming the file; the last page (which carries the hash) is never yielded, so the file is not
 * recorded as read and the next run reads it again. A file replaced by a rename after the reader opened it is
 * no change to the read: the descriptor still reads the scanned version whole.
 *
 * An XLSX is read from the archive's entries, not front to back: before each batch the path is stat'ed, and at
 * the end the file is scanned again and must hash as before.
 */
export class ReadGuard {
  private readonly hash: Hash;
  private bytes = 0;

  constructor(
    private readonly file: string,
    /** for messages: the file's base name or the URL */
    private readonly name: string,
    private readonly scan: FileScan,
    digest: string,
    /** a scan of the file now (the XLSX's check at the end) */
    private readonly rescan: () => Promise<FileScan>,
  ) {
    this.hash = createHash('sha256');
    this.hash.update(digest);
    this.hash.update('\0');
  }

  /** size and modification time of the file as scanned (progress) */
  get size(): number {
    return this.scan.stamp.size;
  }

  /** A chunk just read through `fd`: hashed, and the file must still be the one scanned. */
  chunk(fd: number, bytes: Buffer): void {
    this.hash.update(bytes);
    this.bytes += bytes.length;
    this.compare(fstatSync(fd));
  }

  /** `fd` read to its end: the whole scanned file was read, and it hashed as scanned. */
  endOfBytes(fd: number): void {
    this.compare(fstatSync(fd));
    const { size } = this.scan.stamp;
    if (this.bytes !== size) {
      throw this.changed(`${this.bytes.toLocaleString('en-US')} bytes were read of the ${size.toLocaleString('en-US')} it had`);
    }
    if (this.hash.digest('hex') !== this.scan.hash) throw this.changed('the bytes read are not those it had when the read began');
  }

  /** XLSX, before each batch: the file at the path is still the one scanned. */
  async checkFile(): Promise<void> {
    this.compare(await fs.stat(this.file));
  }

  /** XLSX, at the end: still the same file, and it hashes as when the read began. */
  async endOfFile(): Promise<void> {
    await this.checkFile();
    const now = await this.rescan();
    if (now.hash !== this.scan.hash) throw this.changed('its bytes are not those it had when the read began');
    this.compare(now.stamp);
  }

  private compare(now: Stats | FileStamp): void {
    const why = differenceOf(this.scan.stamp, now);
    if (why) throw this.changed(why);
  }

  private changed(why: string): FileChangedError {
    return new FileChangedError(this.name, why);
  }
}

/** A sheet that changed while it was read: the stream fails, nothing of the file is recorded as read. */
export class FileChangedError extends SheetSourceError {
  constructor(name: string, why: string) {
    super(
      `${name} changed while it was read (${why}); it is not recorded as read, and the next run reads it again ` +
        '(an export that rewrites the file in place? let it write another file and rename it over this one when done)',
    );
  }
}

/** What differs between the file as scanned and now, or null. */
export function differenceOf(was: FileStamp, now: FileStamp | Stats): string | null {
  if (now.ino !== was.ino) return 'another file took its place';
  if (now.size !== was.size) return `its size went from ${was.size.toLocaleString('en-US')} to ${now.size.toLocaleString('en-US')} bytes`;
  if (now.mtimeMs !== was.mtimeMs) return `it was modified at ${new Date(now.mtimeMs).toISOString()}`;
  return null;
}
