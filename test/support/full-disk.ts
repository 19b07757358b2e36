/**
 * A disk that fills up, for real: a small tmpfs mounted on a temp folder (tests run as root), where a store's SQLite
 * file lives; `fill()` writes a filler file until the kernel answers ENOSPC, so the store's next write that needs
 * room fails with SQLITE_FULL ("database or disk is full") as on a full disk, and `free()` removes it. Where a
 * tmpfs cannot be mounted (not root, no CAP_SYS_ADMIN) the suite is skipped, saying why.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class FullDisk {
  private constructor(readonly dir: string) {}

  /** A tmpfs of `sizeMb` on a fresh temp folder, or null when it cannot be mounted here. */
  static mount(sizeMb = 16): FullDisk | null {
    const dir = mkdtempSync(join(tmpdir(), 'tracker-sync-full-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'ignore' });
      return new FullDisk(dir);
    } catch {
      rmSync(dir, { recursive: true, force: true });
      return null;
    }
  }

  private get filler(): string {
    return join(this.dir, 'filler');
  }

  /** Takes every free byte of the disk. */
  fill(): void {
    const fd = openSync(this.filler, 'a');
    try {
      for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
        const chunk = Buffer.alloc(size);
        try {
          for (;;) writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        }
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Room again. */
  free(): void {
    if (existsSync(this.filler)) unlinkSync(this.filler);
  }

  unmount(): void {
    try {
      execFileSync('umount', ['-l', this.dir], { stdio: 'ignore' });
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

/** Whether this machine lets a test mount a tmpfs (checked once, by mounting one). */
export const CAN_FILL_A_DISK: boolean = (() => {
  const probe = FullDisk.mount(1);
  probe?.unmount();
  return !!probe;
})();

/** A suite that needs a disk it can fill: skipped, saying why, where a tmpfs cannot be mounted (in CI: fails). */
export function describeFullDisk(name: string, body: () => void): void {
  if (CAN_FILL_A_DISK) describe(`${name} [full disk]`, body);
  else if (process.env.CI === 'true' || process.env.CI === '1') {
    describe(`${name} [full disk]`, () => {
      it('needs a tmpfs it can fill in CI', () => {
        throw new Error('a tmpfs cannot be mounted: run the tests as root with CAP_SYS_ADMIN');
      });
    });
  } else {
    describe.skip(`${name} [full disk] skipped: a tmpfs cannot be mounted here (needs root with CAP_SYS_ADMIN)`, () => {
      it('runs on a tmpfs it fills up', () => undefined);
    });
  }
}
