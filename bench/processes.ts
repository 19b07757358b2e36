import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Measured {
  code: number;
  wall_ms: number;
  cpu_ms: number;
  peak_rss_mb: number;
  stdout: string;
}

const MEASURE = join(__dirname, 'measure.js');

/** Runs `node script args` in its own process with bench/measure preloaded; echoes a short label first. */
export function runMeasured(
  script: string, args: string[], label: string, nodeFlags: string[] = [], env: Record<string, string> = {},
): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const file = join(dir, 'measure.jsonl');
  process.stdout.write(`running ${label} ... `);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '-r', MEASURE, script, ...args], {
      env: { ...process.env, ...env, BENCH_MEASURE_FILE: file, LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        const line = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').pop()!);
        rmSync(dir, { recursive: true, force: true });
        console.log(`${(line.wall_ms / 1000).toFixed(2)} s${code ? ` (exit ${code})` : ''}`);
        if (code) console.log(tail(stderr || stdout));
        resolve({ ...line, code: code ?? 1, stdout });
      } catch (error) {
        reject(new Error(`${label}: no measurement (exit ${code}): ${tail(stderr || stdout)}`));
      }
    });
  });
}

const tail = (text: string) => text.trim().split('\n').slice(-15).join('\n');

/** Starts bench/sink in its own process; resolves when it listens. */
export function startSink(script: string, latencyMs: number): Promise<{ url: string; stop(): void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--latency', String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.on('error', reject);
    child.stdout.once('data', (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (!port) return reject(new Error(`sink did not start: ${chunk}`));
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') });
    });
  });
}

/**
 * The node flags the engine runs with: `npm start`'s (package.json), read from there so that a benchmark measures
 * the engine as a user starts it (heap caps, no allocation-site pretenuring: README, "What you see on the first start").
 */
export function engineNodeFlags(): string[] {
  return startScriptWords().filter((word) => word.startsWith('--'));
}

/** The environment `npm start` sets for node (`NAME=value` words before the command: glibc's malloc arenas). */
export function engineEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of startScriptWords()) {
    const set = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(word);
    if (set) env[set[1]] = set[2];
  }
  return env;
}

/** The words of the command after `npm run build &&` in package.json's start script. */
function startScriptWords(): string[] {
  const pkg = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split('&&').pop()!.trim().split(/\s+/);
}
