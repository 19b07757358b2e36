import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';
import * as sqlite3 from 'sqlite3';

export interface WriteBlocker {
  /** how the store is made unwritable, for the test's messages */
  readonly how: string;
  /** the text the daemon's error is expected to contain */
  readonly expectedError: RegExp;
  /** how long a write takes to fail once blocked */
  readonly failsWithinMs: number;
  block(): Promise<void>;
  unblock(): Promise<void>;
}

/**
 * Makes the daemon's SQLite store unwritable while the daemon runs. Tests run as root, and root ignores
 * file modes (chmod 0555 changes nothing), so the usual "read-only folder" cannot be staged with chmod.
 *
 * 1. Preferred: the immutable attribute (`chattr +i`) on the store file, its WAL and the data folder. The
 *    kernel refuses every write to an immutable inode, to root as well, even through descriptors opened
 *    before: SQLite's next write fails at once with SQLITE_IOERR ("disk I/O error"), as on a folder
 *    remounted read-only or a failing disk. The `-shm` file is left alone: SQLite maps it into memory, and a
 *    write fault there would be a SIGBUS that kills any process (that is not a daemon bug).
 * 2. Where the attribute is not available (no chattr, no CAP_LINUX_IMMUTABLE, tmpfs/overlay), another
 *    connection holds SQLite's write lock (BEGIN EXCLUSIVE), as a backup tool or a stuck process would:
 *    the daemon's writes fail with SQLITE_BUSY ("database is locked") once its busy timeout (10 s) ends.
 */
export function storeWriteBlocker(dataDir: string, storeFile: string): WriteBlocker {
  return immutableSupported(dataDir) ? immutableBlocker(dataDir, storeFile) : lockBlocker(storeFile);
}

function immutableSupported(dataDir: string): boolean {
  const probeDir = mkdtempSync(join(dataDir, '..', 'chattr-probe-'));
  const probe = join(probeDir, 'probe');
  writeFileSync(probe, 'x');
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
}

function immutableBlocker(dataDir: string, storeFile: string): WriteBlocker {
  const targets = () => [storeFile, `${storeFile}-wal`, dataDir].filter((path) => existsSync(path));
  let blocked: string[] = [];
  return {
    how: 'chattr +i on the store, its WAL and the data folder',
    expectedError: /SQLITE_IOERR|disk I\/O error/,
    failsWithinMs: 5_000,
    async block() {
      blocked = targets();
      execFileSync('chattr', ['+i', ...blocked]);
    },
    async unblock() {
      if (blocked.length) execFileSync('chattr', ['-i', ...blocked]);
      blocked = [];
    },
  };
}

function lockBlocker(storeFile: string): WriteBlocker {
  let holder: sqlite3.Database | null = null;
  const exec = (db: sqlite3.Database, sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve())));
  return {
    how: 'another connection holding the write lock (BEGIN EXCLUSIVE)',
    expectedError: /SQLITE_BUSY|database is locked/,
    failsWithinMs: 25_000,
    async block() {
      holder = new sqlite3.Database(storeFile);
      await exec(holder, 'BEGIN EXCLUSIVE');
    },
    async unblock() {
      if (!holder) return;
      const db = holder;
      holder = null;
      await exec(db, 'ROLLBACK');
      await new Promise<void>((resolve) => db.close(() => resolve()));
    },
  };
}
