#!/usr/bin/env node
/**
 * `npm run cli` compiles only when dist/ is older than a source: tsc's own up-to-date check takes
 * several seconds even when nothing changed, and the CLI is run many times in a row.
 * Stale means: a file under src/, connectors/ or bench/, or a tsconfig, is newer than dist/.tsbuildinfo
 * (tsc rewrites it on every build, while unchanged outputs keep their old times).
 * tsc's messages go to stderr: stdout stays the command's answer.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const SOURCES = ['src', 'connectors', 'bench', 'tsconfig.json', 'tsconfig.build.json'];
/** written by runs, never compiled */
const SKIPPED_DIRS = new Set(['node_modules', 'work', 'results', 'data']);

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** True when `root`'s dist/ is missing or older than one of its sources. */
function isStale(root = ROOT) {
  const buildInfo = join(root, 'dist', '.tsbuildinfo');
  if (!existsSync(buildInfo)) return true;
  const builtAt = statSync(buildInfo).mtimeMs;
  return SOURCES.some((source) => newestMtime(join(root, source)) > builtAt);
}

if (require.main === module) {
  if (!isStale()) process.exit(0);
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  process.exit(result.status ?? 1);
}

module.exports = { isStale };
