/**
 * Entry points of src/ run as child processes (the daemon, the standalone sandbox), from the compiled dist/
 * when it is newer than every source file (fast start), else under ts-node (transpile only).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { nodeEntry, ROOT } from './node-entry';

export interface Proc {
  name: string;
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** SIGTERM, then SIGKILL after `graceMs` */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `entry` relative to src/, without extension, e.g. 'main' or 'sandbox/standalone'; `cwd` for relative paths;
 * `nodeArgs` before the entry (e.g. the heap cap of `npm start`).
 */
export function spawnEntry(name: string, entry: string, args: string[], env: Record<string, string>, cwd = ROOT, nodeArgs: string[] = []): Proc {
  const command = nodeEntry(entry);
  const proc = spawn(process.execPath, [...nodeArgs, ...command, ...args], {
    cwd,
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

/** A loopback port free at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
