/**
 * Cluster mode seen from outside: a daemon with `cluster.redis` (real Redis, real PostgreSQL store) shows the runs
 * queue: /admin/queues (BullMQ's dashboard) needs the admin token, /metrics counts the queue's jobs by state, and
 * GET /api/cluster lists the workers BullMQ sees with the jobs they hold. The jobs and the worker are made here
 * with BullMQ itself, as another daemon's would be. Last, a second daemon joins: a config reload asked of it is
 * asked of the first, so a scoped token taken out of both files answers 401 on both.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { startRedis, RedisServer } from '../../bench/redis-server';
import { redisConnectionOptions } from '../../src/redis/redis-connection';
import { describePostgres, TestSchema } from '../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './support/processes';

const ADMIN_TOKEN = 'queues-test-admin-token-31c7';
const VIEWER_TOKEN = 'queues-test-viewer-token-8d02';
const OPERATOR_TOKEN = 'queues-test-operator-token-5e41';
const SCOPED = {
  viewer: `{ name: viewer, token: ${VIEWER_TOKEN}, projects: [default] }`,
  ops: `{ name: ops, token: ${OPERATOR_TOKEN}, projects: [default], role: operator }`,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describePostgres('cluster mode: the runs queue on /admin/queues, /metrics and /api/cluster', () => {
  jest.setTimeout(120_000);
  const schema = new TestSchema();
  let dir: string;
  let redis: RedisServer;
  let daemon: Proc;
  let url: string;
  let storeUrl: string;
  let queue: Queue;
  let worker: Worker;
  let release!: () => void;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queues-'));
    redis = await startRedis();
    storeUrl = await schema.create();
    buildIfStale();
    writeFileSync(join(dir, 'deals.jsonl'), '');
    writeConfig('config.yaml', ['viewer', 'ops']);
    daemon = spawnEntry('daemon', 'main', ['--config', join(dir, 'config.yaml')], { DATA_DIR: join(dir, 'data'), DATABASE_URL: storeUrl, PORT: '0' });
    url = (await daemon.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1];

    // another daemon's worker, holding one run, and one run delayed; the daemon is frozen meanwhile (SIGSTOP),
    // so that its own worker of the runs queue takes none of them
    daemon.proc.kill('SIGSTOP');
    const connection = redisConnectionOptions(redis.url);
    queue = new Queue('runs', { prefix: 'tracker-sync', connection });
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    worker = new Worker('runs', async () => {
      started();
      await held;
    }, { prefix: 'tracker-sync', connection, name: 'daemon-b~test', concurrency: 1, stalledInterval: 500 });
    await queue.add('sync', { connectionId: 'crm-a' });
    await running;
    await queue.add('sync', { connectionId: 'crm-c' }, { delay: 600_000 });
    daemon.proc.kill('SIGCONT');
  }, 110_000);

  /** The daemons' config, with these scoped tokens. */
  function writeConfig(file: string, tokens: (keyof typeof SCOPED)[]): void {
    writeFileSync(join(dir, file), [
      'server: { host: 127.0.0.1, port: 0 }',
      'tracker: { base_url: "http://127.0.0.1:9/api/v1", api_key: queues-test-key, project: "1" }',
      `admin: { token: ${ADMIN_TOKEN}, tokens: [${tokens.map((name) => SCOPED[name]).join(', ')}] }`,
      `cluster: { redis: ${JSON.stringify(redis.url)} }`,
      'log: { level: info, format: json }',
      'connections:',
      '  - id: q1',
      '    connector: example-custom',
      `    settings: { path: ${JSON.stringify(join(dir, 'deals.jsonl'))} }`,
      '',
    ].join('\n'));
  }

  afterAll(async () => {
    release?.();
    await worker?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await daemon?.stop();
    await redis?.stop();
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/admin/queues answers 401 without the admin token, or with another, and the dashboard with it', async () => {
    expect((await fetch(`${url}/admin/queues`)).status).toBe(401);
    expect((await fetch(`${url}/admin/queues`, { headers: { authorization: 'Bearer not-the-token' } })).status).toBe(401);
    // a scoped token (admin.tokens) sees its projects only: the whole cluster's queue is not for it
    expect((await fetch(`${url}/admin/queues`, { headers: { authorization: `Bearer ${VIEWER_TOKEN}` } })).status).toBe(403);
    const res = await fetch(`${url}/admin/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<html/i);
    // a browser: the token as the password of HTTP Basic, asked for by the 401
    const basic = Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64');
    expect((await fetch(`${url}/admin/queues/api/queues`, { headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
    expect((await fetch(`${url}/admin/queues/api/queues`)).headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('/metrics counts the runs queue by state, and the stalled jobs', async () => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/^tracker_sync_queue_jobs\{queue="runs",state="waiting"\} 0$/m);
    expect(metrics).toMatch(/^tracker_sync_queue_jobs\{queue="runs",state="active"\} 1$/m);
    expect(metrics).toMatch(/^tracker_sync_queue_jobs\{queue="runs",state="delayed"\} 1$/m);
    expect(metrics).toMatch(/^tracker_sync_queue_jobs\{queue="runs",state="failed"\} 0$/m);
    expect(metrics).toMatch(/^tracker_sync_queue_stalled_jobs_total\{queue="runs"\} 0$/m);
  });

  it('GET /api/cluster lists the workers BullMQ sees, with the runs they hold; not those of another database of the Redis', async () => {
    // another installation on the same Redis server, its own database: CLIENT LIST shows its worker too
    const elsewhere = new Worker('runs', async () => undefined, { prefix: 'tracker-sync', connection: redisConnectionOptions(redis.url.replace(/\/\d+$/, "/5")), name: 'other-installation~test' });
    try {
      await elsewhere.waitUntilReady();
      const res = await fetch(`${url}/api/cluster`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { mode: string; queue: string; workers: { name: string; jobs: { connection_id: string }[] }[] };
      expect(body).toMatchObject({ mode: 'cluster', queue: 'runs' });
      const other = body.workers.find((w) => w.name === 'daemon-b~test');
      expect(other?.jobs.map((j) => j.connection_id)).toEqual(['crm-a']);
      expect(body.workers.map((w) => w.name)).not.toContain('other-installation~test');
      // the daemon itself, named by its holder id (host~machine:pid:nonce, as on its run rows)
      expect(body.workers.map((w) => w.name).filter((name) => name !== 'daemon-b~test')).toEqual([expect.stringMatching(new RegExp(`^[^~]+~[0-9a-f]+:${daemon.proc.pid}:`))]);
    } finally {
      await elsewhere.close();
    }
  });

  it('a job whose worker stopped renewing its lock is counted as stalled', async () => {
    const connection = redisConnectionOptions(redis.url);
    // a worker that took a run and froze (it never renews the lock); the other worker's stalled checks find it
    const frozen = new Worker('runs', null, { prefix: 'tracker-sync', connection, name: 'frozen', lockDuration: 1_000 });
    try {
      // the daemon's own worker would take the run first: it is frozen while the other one takes it
      daemon.proc.kill('SIGSTOP');
      try {
        await queue.add('sync', { connectionId: 'crm-b' });
        expect(await frozen.getNextJob('frozen-token')).toBeInstanceOf(Job);
      } finally {
        daemon.proc.kill('SIGCONT');
      }
      let metrics = '';
      for (const until = Date.now() + 20_000; !/^tracker_sync_queue_stalled_jobs_total\{queue="runs"\} 1$/m.test(metrics); await sleep(250)) {
        if (Date.now() > until) throw new Error(`no stalled job counted: ${metrics.split('\n').filter((l) => l.includes('queue_')).join('; ')}`);
        metrics = await (await fetch(`${url}/metrics`)).text();
      }
    } finally {
      await frozen.close(true);
    }
  });

  it('a reload asked of one daemon is asked of the other, each reading its own file: a token taken out of both answers 401 on both', async () => {
    writeConfig('config-2.yaml', ['viewer', 'ops']);
    const second = spawnEntry('daemon-2', 'main', ['--config', join(dir, 'config-2.yaml')], { DATA_DIR: join(dir, 'data-2'), DATABASE_URL: storeUrl, PORT: '0' });
    const redisClient = new Redis(redis.url);
    const as = (token: string, method = 'GET') => ({ method, headers: { authorization: `Bearer ${token}` } });
    try {
      const secondUrl = (await second.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1];
      expect((await fetch(`${url}/api/connections`, as(OPERATOR_TOKEN))).status).toBe(200);
      for (const file of ['config.yaml', 'config-2.yaml']) writeConfig(file, ['viewer']);
      const reload = await fetch(`${secondUrl}/api/config/reload`, as(ADMIN_TOKEN, 'POST'));
      expect(await reload.json()).toMatchObject({ removed: [], restart_required: [], other_daemons_asked: 1 });
      await daemon.waitFor(new RegExp(`config \\S+ reloaded \\(asked by daemon \\S+:${second.proc.pid}:\\w+\\): no connection changed; admin tokens: ops removed`), 10_000);
      for (const at of [url, secondUrl]) {
        expect((await fetch(`${at}/api/connections`, as(OPERATOR_TOKEN))).status).toBe(401);
        expect((await fetch(`${at}/api/connections/q1/pause`, as(OPERATOR_TOKEN, 'POST'))).status).toBe(401);
      }

      // the first daemon cut off from Redis when the next reload goes out (frozen, its subscription closed): it
      // finds the reload it missed once it is back
      daemon.proc.kill('SIGSTOP');
      try {
        const subscriptions = String(await redisClient.call('CLIENT', 'LIST', 'TYPE', 'pubsub')).split('\n');
        const first = subscriptions.find((line) => line.includes(`name=tracker-sync:config-reload:`) && line.includes(`:${daemon.proc.pid}:`));
        await redisClient.call('CLIENT', 'KILL', 'ID', /\bid=(\d+)/.exec(first ?? '')?.[1] ?? 'none');
        for (const file of ['config.yaml', 'config-2.yaml']) writeConfig(file, []);
        const missed = await fetch(`${secondUrl}/api/config/reload`, as(ADMIN_TOKEN, 'POST'));
        expect(await missed.json()).toMatchObject({ other_daemons_asked: 0 });
      } finally {
        daemon.proc.kill('SIGCONT');
      }
      await daemon.waitFor(/reloaded \(asked of the cluster while this daemon was cut off from its Redis\): no connection changed; admin tokens: viewer removed/, 15_000);
      expect((await fetch(`${url}/api/connections`, as(VIEWER_TOKEN))).status).toBe(401);
    } finally {
      redisClient.disconnect();
      await second.stop();
    }
  });
});
