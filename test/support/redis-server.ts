/**
 * Redis for the cluster suites (BullMQ). TEST_REDIS_URL when set (`source .ci/redis.sh`), else a redis-server of
 * the suite's own on a free port when the binary is installed; without either the suites are skipped, saying
 * why (in CI, where .ci/run starts one, they fail instead). A suite that stops and starts Redis always starts
 * its own (`RedisServer`), so that it never stops the one other suites share.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './spawn-entry';
import { TEST_DATABASE_URL } from './store-drivers';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

/** The redis-server binary, or null. */
export const REDIS_SERVER: string | null = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();

/** A suite that needs PostgreSQL and Redis (a redis-server of its own will do). */
export function describeCluster(name: string, body: () => void, options: { ownRedis?: boolean } = {}): void {
  const redis = options.ownRedis ? !!REDIS_SERVER : !!(TEST_REDIS_URL || REDIS_SERVER);
  const missing = [!TEST_DATABASE_URL && 'PostgreSQL (TEST_DATABASE_URL: `source .ci/postgres.sh`)', !redis && 'Redis (TEST_REDIS_URL: `source .ci/redis.sh`, or install redis-server)'].filter(Boolean);
  if (!missing.length) describe(`${name} [postgres+redis]`, body);
  else if (IN_CI) {
    describe(`${name} [postgres+redis]`, () => {
      it('needs PostgreSQL and Redis in CI', () => {
        throw new Error(`missing: ${missing.join(', ')}`);
      });
    });
  } else {
    describe.skip(`${name} [postgres+redis] skipped: no ${missing.join(', no ')}`, () => {
      it('runs on PostgreSQL and Redis', () => undefined);
    });
  }
}

/** A redis-server of this process, on a free port, in a temp dir (`persist`: AOF there, so a restart keeps the data). */
export class RedisServer {
  private proc?: ChildProcess;
  readonly dir = mkdtempSync(join(tmpdir(), 'tracker-sync-redis-'));
  port = 0;

  constructor(private readonly options: { persist?: boolean } = {}) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!REDIS_SERVER) throw new Error('redis-server is not installed');
    this.port ||= await freePort();
    const persistence = this.options.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    this.proc = spawn(REDIS_SERVER, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--maxmemory-policy', 'noeviction', '--daemonize', 'no', '--dir', this.dir], { stdio: 'ignore' });
    for (const until = Date.now() + 10_000; ; ) {
      if (await ping(this.port)) return;
      if (Date.now() > until) throw new Error(`redis-server did not answer on port ${this.port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops the server (SIGKILL when `abrupt`: no final save, as a crash). */
  async stop(abrupt = false): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill(abrupt ? 'SIGKILL' : 'SIGTERM');
    await exited;
  }

  async dispose(): Promise<void> {
    await this.stop(true);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Redis for one suite: TEST_REDIS_URL with a database of its own (`db`, 1-15, one per suite: suites run in
 * parallel), emptied first; or a server of its own.
 */
export async function suiteRedis(db: number): Promise<{ url: string; dispose: () => Promise<void> }> {
  if (TEST_REDIS_URL) {
    const url = `${TEST_REDIS_URL.replace(/\/\d*$/, '')}/${db}`;
    await flush(url);
    return { url, dispose: async () => undefined };
  }
  const server = new RedisServer();
  await server.start();
  return { url: server.url, dispose: () => server.dispose() };
}

async function flush(url: string): Promise<void> {
  const { default: IORedis } = await import('ioredis');
  const client = new IORedis(url, { maxRetriesPerRequest: 1 });
  try {
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}

async function ping(port: number): Promise<boolean> {
  const { default: IORedis } = await import('ioredis');
  const client = new IORedis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
