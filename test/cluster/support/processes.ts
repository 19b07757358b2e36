/**
 * Child processes of the cluster test: the daemon (src/main) and the standalone sandbox, run from the
 * compiled dist/ when it is newer than every source file (fast start), else under ts-node (transpile only).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { isFresh, ROOT } from '../../support/node-entry';

export { Proc, spawnEntry } from '../../support/spawn-entry';

/** Compiles src/ and connectors/ into dist/ (incremental) unless dist/ is newer than every source. */
export function buildIfStale(): void {
  if (isFresh(join(ROOT, 'dist', 'src', 'main.js'))) return;
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe', timeout: 150_000 });
  } catch {
    // type errors elsewhere in the tree: spawnEntry falls back to ts-node when dist/ is still not fresh
  }
}
