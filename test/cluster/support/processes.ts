/**
 * Child processes of the cluster test: the daemon (src/main) and the standalone sandbox, run from the
 * compiled dist/ when it is newer than every source file (fast start), else under ts-node (transpile only).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { isFresh, nodeEntry, ROOT } from '../../support/node-entry';

export interface Proc {
  name: string;
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** SIGTERM, then SIGKILL after `graceMs` */
  stop(graceMs?: number): Promise<void>;
}

/** `entry` relative to src/, without extension, e.g. 'main' or 'sandbox/standalone'. */
export function spawnEntry(name: string, entry: string, args: string[], env: Record<string, string>): Proc {
  const command = nodeEntry(entry);
  const proc = spawn(process.execPath, [...command, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TS_NODE_TRANSPILE_ONLY: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    name,
    proc,
    output: () => out,
    exited,
    async waitFor(pattern, timeoutMs) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(out);
        if (match) return match;
        if (Date.now() > until || proc.exitCode !== null || proc.signalCode !== null) {
          throw new Error(`${name} did not print ${pattern} (exit ${proc.exitCode ?? proc.signalCode}):\n${out.slice(-4000)}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop(graceMs = 8000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Compiles src/ and connectors/ into dist/ (incremental) unless dist/ is newer than every source. */
export function buildIfStale(): void {
  if (isFresh(join(ROOT, 'dist', 'src', 'main.js'))) return;
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe', timeout: 150_000 });
  } catch {
    // type errors elsewhere in the tree: spawnEntry falls back to ts-node when dist/ is still not fresh
  }
}
