/**
 * Runs `main` in a child process, as `npm start` does: the compiled dist/src/main.js when it is newer
 * than every source file, otherwise src/main.ts under ts-node (transpile only), so a test never waits
 * for a build nor runs stale code.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface DaemonChild {
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
}

export function spawnDaemon(args: string[], env: Record<string, string>): DaemonChild {
  const compiled = join(ROOT, 'dist', 'src', 'main.js');
  const entry = isFresh(compiled) ? [compiled] : ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src', 'main.ts')];
  const proc = spawn(process.execPath, [...entry, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TS_NODE_TRANSPILE_ONLY: 'true', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (pattern: RegExp, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(out);
      if (match) return match;
      if (Date.now() > until || proc.exitCode !== null) throw new Error(`the daemon did not print ${pattern}:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { proc, output: () => out, exited, waitFor };
}

/** tsc rewrites dist/.tsbuildinfo on every build, while unchanged outputs keep their old times. */
function isFresh(compiled: string): boolean {
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
