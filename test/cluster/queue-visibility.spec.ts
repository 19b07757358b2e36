/**
 * Cluster mode seen from outside: a daemon with `cluster.redis` (real Redis, real PostgreSQL store) shows the runs
 * queue: /admin/queues (BullMQ's dashboard) needs the admin token, /metrics counts the queue's jobs by state, and
 * GET /api/cluster lists the workers BullMQ sees with the jobs they hold. The jobs and the worker are made here
 * with BullMQ itself, as another daemon's would be.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, Worker } from 'bullmq';
import { startRedis, RedisServer } from '../../bench/redis-server';
import { redisConnectionOptions } from '../../src/redis/redis-connection';
import { describePostgres, TestSchema } from '../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './support/processes';

const ADMIN_TOKEN = 'queues-test-admin-token-31c7';
const VIEWER_TOKEN = 'queues-test-viewer-token-8d02';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describePostgres('cluster mode: the runs queue on /admin/queues, /metrics and /api/cluster', () => {
  jest.setTimeout(120_000);
  const schema = new TestSchema();
  let dir: string;
  let redis: RedisServer;
  let daemon: Proc;
  let url: string;
  let queue: Queue;
  let worker: Worker;
  let release!: () => void;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queues-'));
    redis = await startRedis();
    const storeUrl = await schema.create();
    buildIfStale();
    writeFileSync(join(dir, 'deals.jsonl'), '');
    writeFileSync(join(dir, 'config.yaml'), [
      'server: { host: 127.0.0.1, port: 0 }',
      'tracker: { base_url: "http://127.0.0.1:9/api/v1", api_key: queues-test-key, project: "1" }',
      `admin: { token: ${ADMIN_TOKEN}, tokens: [{ name: viewer, token: ${VIEWER_TOKEN}, projects: [default] }] }`,
      `cluster: { redis: ${JSON.stringify(redis.url)} }`,
      'log: { level: info, format: json }',
      'connections:',
      '  - id: q1',
      '    connector: example-custom',
      `    settings: { path: ${JSON.stringify(join(dir, 'deals.jsonl'))} }`,
      '',
    ].join('\n'));
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
});
