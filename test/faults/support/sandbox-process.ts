import { ChildProcess, spawn } from 'child_process';
import { freePort } from '../../support/spawn-entry';
import type { TranspiledBuild } from './transpiled-build';

export interface SandboxProcess {
  baseUrl: string;
  apiKey: string;
  project: string;
  stop(): Promise<void>;
}

export interface SandboxProcessOptions {
  db: string;
  latencyMs?: number;
  faults?: number;
}

/** The standalone sandbox (`npm run sandbox`) as its own process, on a free loopback port, with a file DB. */
export async function startSandboxProcess(build: TranspiledBuild, options: SandboxProcessOptions): Promise<SandboxProcess> {
  const port = await freePort();
  const apiKey = 'fault-suite-key';
  const args = [
    build.js('src/sandbox/standalone.js'), '--port', String(port), '--db', options.db, '--seed', 'demo', '--api-key', apiKey,
    '--budget', 'off', '--latency', String(options.latencyMs ?? 0), '--faults', String(options.faults ?? 0),
  ];
  const child = spawn(process.execPath, args, { cwd: build.root, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = await waitForLine(child, /^project: (\d+)$/m, 60_000);
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    apiKey,
    project: /^project: (\d+)$/m.exec(output)![1],
    stop: () => stopChild(child),
  };
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${output}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

