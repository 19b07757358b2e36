import { ChildProcess, spawn } from 'child_process';
import type { TranspiledBuild } from './transpiled-build';
import { ROOT } from './transpiled-build';

export interface CliChild {
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** resolves with the run id once the CLI printed "run N started"; null when the process ended first */
  started: Promise<number | null>;
}

/** `tracker-sync sync <connection> --config FILE`, compiled, as a user would run it (no TTY: plain lines). */
export function spawnCliSync(build: TranspiledBuild, connection: string, configFile: string): CliChild {
  const proc = spawn(process.execPath, [build.js('src/cli.js'), 'sync', connection, '--config', configFile], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let onStarted: (id: number | null) => void = () => undefined;
  const started = new Promise<number | null>((resolve) => (onStarted = resolve));
  const collect = (chunk: Buffer) => {
    output += chunk;
    const match = /run (\d+) started/.exec(output);
    if (match) onStarted(Number(match[1]));
  };
  proc.stdout!.on('data', collect);
  proc.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => {
      onStarted(null);
      resolve({ code, signal });
    }),
  );
  return { proc, output: () => output, exited, started };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
