import { spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { runCli as runCliMain } from '../../src/cli/run-cli';
import type { CliOutput } from '../../src/cli/output/cli-output';
import { nodeEntry } from '../support/node-entry';

export const ROOT = resolve(__dirname, '../..');
export const PLUGIN_FOLDER = join(__dirname, 'fixtures');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in a child process, as a user would (no TTY: plain lines; compiled when fresh). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 25_000): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...nodeEntry('cli'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Runs the CLI in this process (same code path as src/cli.ts), capturing its output. */
export async function runCliInProcess(args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const output: CliOutput = { line: (t) => out.push(t), error: (t) => err.push(t), isTTY: false };
  // the log lines would go to jest's own stderr: only problems
  const code = await runCliMain(['node', 'cli.js', ...args], { PATH: process.env.PATH, LOG_LEVEL: 'warn' }, output);
  return { code, stdout: out.map((l) => `${l}\n`).join(''), stderr: err.map((l) => `${l}\n`).join('') };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tracker-sync-cli-'));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes a YAML config: the store under `dir`, the service at `baseUrl` (null = the embedded sandbox),
 * one connection `sheet` reading `csvPath`.
 */
export function writeConfig(dir: string, baseUrl: string | null, apiKey: string, csvPath: string, name = 'config.yaml', extraSettings: object = {}): string {
  const file = join(dir, name);
  const tracker = baseUrl ? { base_url: baseUrl, api_key: apiKey, project: '1' } : {};
  writeFileSync(
    file,
    stringify({
      data_dir: join(dir, `data-${name}`),
      tracker: { ...tracker, rate_limit: 'off', retries: 1, timeout_ms: 3000 },
      sandbox: { seed: 'none', budget: 'off' },
      connector_paths: [PLUGIN_FOLDER],
      connections: [
        { id: 'sheet', connector: 'cli-test-source', schedule: '*/10 * * * *', settings: { path: csvPath, token: 'cli-secret-token-31337', ...extraSettings } },
      ],
    }),
  );
  return file;
}

/** A service that answers every request with 500: a run against it must fail. */
export async function startFailingService(): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"status":"error","message":"internal error"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/api/v1`, server, hits: () => hits };
}
