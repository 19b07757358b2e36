/**
 * Cluster mode, a network partition: daemon A reaches Redis through a TCP proxy that the test cuts while A runs a
 * connection; A still reaches PostgreSQL and the service. Daemon B takes A's job over once its lock has lapsed.
 * A must stop its run before that (its lock's renewals no longer come back), or both daemons run the connection
 * at once: a lead delivery would create its deals twice. Measured outside the daemons: every request A sends to
 * the service goes through a counting proxy, and none may arrive after B's run began.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { describeCluster, RedisServer } from '../support/redis-server';
import { freePort } from '../support/spawn-entry';
import { TestSchema } from '../support/store-drivers';
import { countingProxy, CountingProxy } from './support/counting-proxy';
import { buildIfStale, Proc, spawnEntry } from './support/processes';
import { api, API_KEY, clusterConfigYaml, dealsFile, keepLogs, pidOf, PROJECT, runsOf, sleep } from './support/cluster-mode';

const DEALS = 600; // 60 batches at 250 ms: a run of ~15 s
const LATENCY_MS = 250;

/** A TCP proxy to Redis whose `cut` drops every connection and refuses new ones (the daemon's side of a partition). */
async function cuttableProxy(port: number): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const cut = () => {
    server.close();
    for (const socket of sockets) socket.destroy();
  };
  return { url, cut, close: async () => cut() };
}

describeCluster(
  'cluster mode: a daemon cut off from Redis',
  () => {
    jest.setTimeout(180_000);
    const schema = new TestSchema();
    const redis = new RedisServer({ persist: true });
    let dir: string;
    let storeUrl: string;
    let sandboxUrl: string;
    let store: DataSource;
    let sandbox: Proc;
    let seenFromA: CountingProxy;
    let redisOfA: Awaited<ReturnType<typeof cuttableProxy>>;
    const procs: Proc[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queue-partition-'));
      storeUrl = await schema.create();
      await redis.start();
      writeFileSync(join(dir, 'slow.jsonl'), dealsFile('slow', DEALS));
      buildIfStale();
      const port = await freePort();
      sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--budget', 'off', '--seed', 'none', '--api-key', API_KEY, '--latency', String(LATENCY_MS)], {});
      expect((await sandbox.waitFor(/project: (\d+)/, 90_000))[1]).toBe(PROJECT);
      sandboxUrl = `http://127.0.0.1:${port}/api/v1`;
      seenFromA = await countingProxy(`http://127.0.0.1:${port}`);
      redisOfA = await cuttableProxy(redis.port);
      // stalled_after 6s: a lock of 2 s, renewed every 0.5-1 s
      const config = (sandboxUrl: string, redisUrl: string) => clusterConfigYaml({ dir, sandboxUrl, redisUrl, scheduled: [], schedule: '0 0 1 1 *', manual: ['slow'], stalledAfter: '6s' });
      writeFileSync(join(dir, 'a.yaml'), config(`${seenFromA.url}/api/v1`, redisOfA.url));
      writeFileSync(join(dir, 'b.yaml'), config(sandboxUrl, redis.url));
      store = await new DataSource({ type: 'postgres', url: storeUrl, extra: { max: 2 } }).initialize();
    }, 120_000);

    afterAll(async () => {
      await Promise.all(procs.map((p) => p.stop(3_000)));
      await sandbox?.stop();
      keepLogs('queue-partition', [sandbox, ...procs]);
      await seenFromA?.close();
      await redisOfA?.close();
      if (store?.isInitialized) await store.destroy();
      await schema.drop();
      await redis.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    const daemon = async (name: string, config: string) => {
      const proc = spawnEntry(name, 'main', ['--config', join(dir, config)], { DATA_DIR: join(dir, `data-${name}`), DATABASE_URL: storeUrl, PORT: '0' });
      procs.push(proc);
      return { proc, url: (await proc.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1] };
    };
    const waitUntil = async (what: string, ms: number, ok: () => Promise<boolean>) => {
      for (const until = Date.now() + ms; !(await ok()); await sleep(250)) if (Date.now() > until) throw new Error(`${what}: not within ${ms / 1000} s`);
    };

    it("stops its run before another daemon takes the job over: the two never send at once, and every deal arrives", async () => {
      const a = await daemon('a', 'a.yaml');
      const started = await api(a.url, 'POST', '/api/connections/slow/sync');
      expect(started.status).toBe(202);
      const b = await daemon('b', 'b.yaml');
      await waitUntil('A sends', 20_000, async () => seenFromA.seen.some((r) => r.path.endsWith('/add-orders')));
      redisOfA.cut();
      const cutAt = Date.now();

      // B takes the job over once A's lock has lapsed, and finishes the run from A's checkpoint
      await waitUntil("B's run of the connection", 60_000, async () => (await runsOf(store)).some((r) => pidOf(r) === b.proc.proc.pid && r.status === 'succeeded'));
      const resumed = (await runsOf(store)).find((r) => pidOf(r) === b.proc.proc.pid)!;
      const resumedAt = Date.parse(resumed.started_at);
      const sentByA = seenFromA.seen.filter((r) => r.path.endsWith('/add-orders'));
      expect(sentByA.length).toBeGreaterThan(0);
      // A stopped within about a lock's time of the cut (a request in flight may end after it), before B began
      expect(sentByA.filter((r) => r.at > resumedAt)).toEqual([]);
      expect(Math.max(...sentByA.map((r) => r.at)) - cutAt).toBeLessThan(2_000 + 2 * LATENCY_MS);
      // and says why
      await a.proc.waitFor(/run \d+ stops at its next checkpoint: job [^:]+: no renewal of its lock came back for [\d.]+ s \(Redis out of reach\)/, 10_000);

      const tracker = new TrackerClient({ baseUrl: sandboxUrl, apiKey: API_KEY, project: PROJECT, rateLimit: 'off', retries: 3, timeoutMs: 15_000 });
      try {
        expect((await tracker.orders.list({ limit: 1 })).total).toBe(DEALS);
      } finally {
        await tracker.close();
      }
    });
  },
  { ownRedis: true },
);
