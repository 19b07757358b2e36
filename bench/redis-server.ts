/**
 * A throw-away redis-server (Debian's, /usr/bin/redis-server) on a free loopback port, for the cluster tests and
 * bench:cluster, as .ci/postgres.sh starts PostgreSQL. In-memory only, no eviction (as docs/cluster.md asks).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  url: string;
  port: number;
  /** stops it (SIGTERM, then SIGKILL) and removes its folder */
  stop(): Promise<void>;
}

export async function startRedis(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const proc: ChildProcess = spawn(
    process.env.REDIS_SERVER || 'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on ${chosen}: ${log}`)), 10_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/Ready to accept connections/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${log}`));
    });
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${chosen}/0`,
    port: chosen,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
