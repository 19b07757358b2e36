/**
 * Boots the real daemon in this process (createDaemonApp, as `npm start` does) on a temp data folder
 * and a free port, and collects what it writes to stdout: the token notice and the log lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDaemonApp, Daemon } from '../../src/daemon';

export interface StdoutCapture {
  text(): string;
  restore(): void;
}

/** Keeps what the daemon prints (it writes through process.stdout) out of the test report, for the test to read. */
export function captureStdout(): StdoutCapture {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write);
  return { text: () => chunks.join(''), restore: () => spy.mockRestore() };
}

export interface RunningDaemon {
  daemon: Daemon;
  url: string;
  output: StdoutCapture;
  stop(): Promise<void>;
}

/** `env` is the daemon's whole environment (config expansion and overrides), as a shell would pass it. */
export async function startDaemon(env: Record<string, string>, configFile?: string): Promise<RunningDaemon> {
  const output = captureStdout();
  try {
    const argv = ['node', 'main.js', ...(configFile ? ['--config', configFile] : [])];
    const daemon = await createDaemonApp({ argv, env: { PORT: '0', ...env } });
    await daemon.start();
    return {
      daemon,
      url: daemon.url,
      output,
      async stop() {
        try {
          await daemon.stop();
        } finally {
          output.restore();
        }
      },
    };
  } catch (error) {
    output.restore();
    throw error;
  }
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `tracker-sync-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface RunJson {
  id: number;
  connection_id: string;
  status: string;
  trigger: string;
  mode: string;
  streams: Record<string, { read: number; sent: number; unchanged: number; rejected: number; sent_without_visit: number }>;
  counters: Record<string, number>;
  rejected_count: number;
  started_at: string;
  finished_at: string | null;
  error: string | null;
}

export async function api<T = unknown>(url: string, token: string | null, path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url + path, { ...init, headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: body as T };
}

/** Polls the admin API until the connection has a run with this id (or the first) that is no longer running. */
export async function waitForFinishedRun(url: string, token: string, connection: string, runId?: number, timeoutMs = 60_000): Promise<RunJson> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api<{ runs: RunJson[] }>(url, token, `/api/runs?connection=${encodeURIComponent(connection)}&limit=50`);
    if (status !== 200) throw new Error(`GET /api/runs answered ${status}: ${JSON.stringify(body)}`);
    const run = runId === undefined ? body.runs[body.runs.length - 1] : body.runs.find((r) => r.id === runId);
    if (run && run.status !== 'running') return run;
    if (Date.now() > until) throw new Error(`run ${runId ?? 'first'} of ${connection} did not finish within ${timeoutMs} ms: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The token from the one-time notice (`Admin API token (shown only this once ...):` then the token). */
export function printedToken(stdout: string): string | null {
  return /Admin API token \(shown only this once[^\n]*\n\s*\n\s*(\S+)/.exec(stdout)?.[1] ?? null;
}
