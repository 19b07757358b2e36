import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../cli/cli-harness';
import { nodeEntry } from '../../support/node-entry';

/**
 * Runs the CLI (`args`), waits until `ready()` holds (a create has reached the fixture CRM, which holds its answer),
 * lets 200 ms pass and SIGKILLs it: a crash while a write into the CRM is out. Fails naming `what` and the CLI's
 * output if that never happens within a minute.
 */
export async function killCliWhen(args: string[], ready: () => boolean, what: string): Promise<void> {
  const child = spawn(process.execPath, [...nodeEntry('cli'), ...args], {
    cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${what} never came:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGKILL');
  await exited;
}
