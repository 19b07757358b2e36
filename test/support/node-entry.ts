/**
 * How a test starts one of our entry points in a child process: the compiled dist/ file when it is newer
 * than every source file (`npm test` builds first, in its pretest step), otherwise the TypeScript source
 * under ts-node (transpile only), so a test neither waits for a build nor runs stale code.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** `entry` relative to src/, e.g. 'main' or 'cli': the node arguments that start it. */
export function nodeEntry(entry: string): string[] {
  const compiled = join(ROOT, 'dist', 'src', `${entry}.js`);
  // resolved here: a child started in another folder (a temp dir as its cwd) would not find ts-node by name
  const tsNode = require.resolve('ts-node/register/transpile-only');
  return isFresh(compiled) ? [compiled] : ['-r', tsNode, join(ROOT, 'src', `${entry}.ts`)];
}

/** tsc rewrites dist/.tsbuildinfo on every build, while unchanged outputs keep their old times. */
export function isFresh(compiled: string): boolean {
  const buildInfo = join(ROOT, 'dist', '.tsbuildinfo');
  if (!existsSync(compiled) || !existsSync(buildInfo)) return false;
  const builtAt = statSync(buildInfo).mtimeMs;
  return ['src', 'connectors'].every((dir) => newestTs(join(ROOT, dir)) <= builtAt);
}

function newestTs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestTs(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}
