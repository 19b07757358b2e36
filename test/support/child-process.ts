import { ChildProcess, spawn } from 'child_process';
import { join } from 'path';

export interface Child {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  waitFor: (text: string, timeoutMs?: number) => Promise<void>;
}

/** Starts test/support/child-sync.ts under ts-node (transpile only: fast start). */
export function startChildSync(env: Record<string, string>): Child {
  const root = join(__dirname, '..', '..');
  const proc = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, 'child-sync.ts')], {
    cwd: root,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (Date.now() > until || proc.exitCode !== null) throw new Error(`child did not print "${text}": ${out}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { proc, output: () => out, exited, waitFor };
}

export function resultOf(output: string): Record<string, unknown> {
  const line = output.split('\n').find((l) => l.startsWith('result '));
  if (!line) throw new Error(`no result in child output: ${output}`);
  return JSON.parse(line.slice('result '.length));
}
