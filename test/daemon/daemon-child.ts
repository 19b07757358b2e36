/** Runs `main` in a child process, as `npm start` does (compiled when fresh: see support/node-entry). */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { nodeEntry } from '../support/node-entry';

const ROOT = join(__dirname, '..', '..');

export interface DaemonChild {
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
}

export function spawnDaemon(args: string[], env: Record<string, string>): DaemonChild {
  const entry = nodeEntry('main');
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
