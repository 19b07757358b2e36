/**
 * Cluster mode when Redis fails, on real PostgreSQL and a redis-server of the suite's own (AOF, as docs advise):
 * two daemons, five connections on a 10-s seconds cron and one long manual run.
 * - Redis stopped for 20 s while runs go: the run in flight stops cleanly at a checkpoint (interrupted, resumed
 *   once Redis is back; no row left running), both daemons
 *   answer /health (200, `degraded`, naming Redis) and the admin API meanwhile; once Redis is back the ticks run
 *   again, and a webhook call taken meanwhile runs its sync; nothing is lost (every deal in the service) and
 *   nothing is done twice (each deal sent once over all runs; no two runs of a connection overlap; no tick slot
 *   runs twice).
 * - Redis restarted empty: the job schedulers are back within seconds (re-created from the config) and tick.
 * - A daemon stopped (SIGTERM) mid-run: the other takes its job at once and resumes from the checkpoint.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { redisConnectionOptions } from '../../src/redis/redis-connection';
import { QUEUE_PREFIX, TRIGGER_QUEUE } from '../../src/cluster/run-queue';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { describeCluster, RedisServer } from '../support/redis-server';
import { freePort } from '../support/spawn-entry';
import { sql, TestSchema } from '../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './support/processes';
import { api, API_KEY, clusterConfigYaml, dealsFile, keepLogs, overlapping, PROJECT, runsOf, sleep, WEBHOOK_SECRET } from './support/cluster-mode';

const DEALS = 60;
const SLOW_DEALS = 400; // 40 batches at 250 ms: a run of ~10 s, in flight when Redis stops
const LATENCY_MS = 250;
const ids = ['r1', 'r2', 'r3', 'r4', 'r5'];
const OUTAGE_MS = 20_000;

describeCluster(
  'cluster mode: Redis stops and comes back',
  () => {
    jest.setTimeout(240_000);
    const schema = new TestSchema();
    const redis = new RedisServer({ persist: true });
    let dir: string;
    let store: DataSource;
    let sandbox: Proc;
    let sandboxUrl: string;
    const daemons: { proc: Proc; url: string }[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queue-faults-'));
      const storeUrl = await schema.create();
      await redis.start();
      for (const id of ids) writeFileSync(join(dir, `${id}.jsonl`), dealsFile(id, DEALS));
      writeFileSync(join(dir, 'slow.jsonl'), dealsFile('slow', SLOW_DEALS));
      writeFileSync(join(dir, 'hooked.jsonl'), dealsFile('hooked', DEALS));
      buildIfStale();
      const port = await freePort();
      sandboxUrl = `http://127.0.0.1:${port}/api/v1`;
      writeFileSync(join(dir, 'config.yaml'), clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: ids, schedule: '*/10 * * * * *', manual: ['slow'], webhook: { id: 'hooked', debounce: '1s' } }));
      sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--budget', 'off', '--seed', 'none', '--api-key', API_KEY, '--latency', String(LATENCY_MS)], {});
      const procs = [1, 2].map((n) => spawnEntry(`daemon-${n}`, 'main', ['--config', join(dir, 'config.yaml')], { DATA_DIR: join(dir, `data-${n}`), DATABASE_URL: storeUrl, PORT: '0' }));
      expect((await sandbox.waitFor(/project: (\d+)/, 90_000))[1]).toBe(PROJECT);
      for (const proc of procs) daemons.push({ proc, url: (await proc.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1] });
      store = await new DataSource({ type: 'postgres', url: storeUrl, extra: { max: 2 } }).initialize();
    }, 180_000);

    afterAll(async () => {
      await Promise.all(daemons.map((d) => d.proc.stop()));
      await sandbox?.stop();
      keepLogs('queue-faults', [sandbox, ...daemons.map((d) => d.proc)]);
      if (store?.isInitialized) await store.destroy();
      await schema.drop();
      await redis.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    const runs = () => runsOf(store);
    const waitUntil = async (what: string, ms: number, ok: () => Promise<boolean>) => {
      for (const until = Date.now() + ms; !(await ok()); await sleep(250)) if (Date.now() > until) throw new Error(`${what}: not within ${ms / 1000} s`);
    };

    it('Redis stopped for 20 s mid-run: the run ends cleanly, the daemons answer (degraded), work resumes, nothing lost or twice', async () => {
      // every connection has run once (its deals are in), before the fault
      await waitUntil('first ticks', 60_000, async () => {
        const all = await runs();
        return ids.every((id) => all.some((r) => r.connection_id === id && r.status === 'succeeded'));
      });
      const slow = await api(daemons[0].url, 'POST', '/api/connections/slow/sync');
      expect(slow.status).toBe(202);
      await sleep(2_000); // a few batches in
      await redis.stop();
      const stoppedAt = new Date().toISOString();

      await sleep(3_000);
      for (const daemon of daemons) {
        const health = await api(daemon.url, 'GET', '/health');
        expect([health.status, health.body.status, health.body.info.store.status, health.body.error.redis.status]).toEqual([200, 'degraded', 'up', 'down']);
        expect(health.body.error.redis.message).toMatch(/Redis/);
        expect((await api(daemon.url, 'GET', '/api/connections')).status).toBe(200);
      }
      // a webhook call is taken (202) and waits in the daemon for Redis: its run comes once Redis is back
      const hook = await fetch(`${daemons[0].url}/hooks/hooked/${WEBHOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(hook.status).toBe(202);
      // a trigger answers at once that it cannot be queued
      const refused = await api(daemons[1].url, 'POST', '/api/connections/r1/sync');
      expect([refused.status, refused.body.message]).toEqual([503, expect.stringContaining('cluster.redis')]);
      // the run in flight stops cleanly at a checkpoint: a daemon cannot tell Redis down from itself cut off, and a
      // job whose lock may lapse may be taken over (queue-partition.spec.ts)
      await waitUntil('the slow run ends', 30_000, async () => (await runs()).find((r) => r.id === slow.body.run_id)!.status !== 'running');
      expect((await runs()).find((r) => r.id === slow.body.run_id)!.status).toBe('interrupted');
      await sleep(Math.max(0, Date.parse(stoppedAt) + OUTAGE_MS - Date.now()));
      await redis.start();
      const backAt = new Date().toISOString();

      // the schedules tick again: each connection runs after Redis is back
      await waitUntil('ticks after Redis came back', 40_000, async () => {
        const all = await runs();
        return ids.every((id) => all.some((r) => r.connection_id === id && r.started_at > backAt && r.status === 'succeeded'));
      });
      await waitUntil('the webhook run', 30_000, async () => (await runs()).some((r) => r.connection_id === 'hooked' && r.trigger === 'webhook' && r.status === 'succeeded'));
      // the interrupted run's job goes on from its checkpoint
      await waitUntil('the slow run resumed', 60_000, async () => (await runs()).some((r) => r.connection_id === 'slow' && r.started_at > backAt && r.status === 'succeeded'));
      expect((await runs()).filter((r) => r.connection_id === 'hooked' && r.started_at < backAt)).toEqual([]);
      await sleep(5_000);
      await waitUntil('runs end', 30_000, async () => !(await runs()).some((r) => r.status === 'running'));

      const all = await runs();
      expect(all.filter((r) => r.status === 'failed')).toEqual([]);
      expect(overlapping(all)).toEqual([]);
      // no tick slot ran twice: at most one scheduled run of a connection starts in each 10-s slot
      const slots = new Map<string, number>();
      for (const r of all.filter((r) => r.trigger === 'schedule')) {
        const key = `${r.connection_id} ${r.started_at.slice(0, 18)}`; // …T10:20:3 = the slot 10:20:30-39
        slots.set(key, (slots.get(key) ?? 0) + 1);
      }
      expect([...slots].filter(([, n]) => n > 1)).toEqual([]);
      // each deal sent once over all runs, and all of them in the service
      const sent = await sql<{ connection_id: string; streams: string }[]>(store, 'SELECT connection_id, streams FROM run');
      const sentOf = (id: string) => sent.filter((r) => r.connection_id === id).reduce((n, r) => n + (JSON.parse(r.streams).deals?.sent ?? 0), 0);
      expect(Object.fromEntries([...ids, 'hooked', 'slow'].map((id) => [id, sentOf(id)]))).toEqual(Object.fromEntries([...[...ids, 'hooked'].map((id) => [id, DEALS]), ['slow', SLOW_DEALS]]));
      const tracker = new TrackerClient({ baseUrl: sandboxUrl, apiKey: API_KEY, project: PROJECT, rateLimit: 'off', retries: 3, timeoutMs: 15_000 });
      try {
        expect((await tracker.orders.list({ limit: 1 })).total).toBe((ids.length + 1) * DEALS + SLOW_DEALS);
      } finally {
        await tracker.close();
      }
      const health = await api(daemons[1].url, 'GET', '/health');
      expect([health.status, health.body.status]).toEqual([200, 'ok']);
    });

    it('Redis restarted empty: the job schedulers are re-created from the config at once and tick', async () => {
      await redis.stop(true);
      for (const file of readdirSync(redis.dir)) rmSync(join(redis.dir, file), { recursive: true, force: true });
      await redis.start();
      const restartedAt = new Date().toISOString();
      const queue = new Queue(TRIGGER_QUEUE, { prefix: QUEUE_PREFIX, connection: redisConnectionOptions(redis.url) });
      try {
        await waitUntil('schedulers re-created', 5_000, async () => (await queue.getJobSchedulersCount()) === ids.length);
      } finally {
        await queue.close();
      }
      await waitUntil('ticks after the empty restart', 30_000, async () => {
        const all = await runs();
        return ids.every((id) => all.some((r) => r.connection_id === id && r.started_at > restartedAt && r.status === 'succeeded'));
      });
    });

    it('a daemon stopped mid-run: the other resumes its run at once from the checkpoint', async () => {
      // new deals, a day later: an incremental run of ~10 s
      const later = Array.from({ length: SLOW_DEALS }, (_, i) => {
        const at = new Date(Date.UTC(2025, 2, 11, 9, 0, i)).toISOString();
        return JSON.stringify({ type: 'deal', id: `slow-b${i + 1}`, title: 'Deal', created_at: at, updated_at: at, status: '0', price: 100 });
      });
      writeFileSync(join(dir, 'slow.jsonl'), dealsFile('slow', SLOW_DEALS) + later.join('\n') + '\n');
      const started = await api(daemons[0].url, 'POST', '/api/connections/slow/sync');
      expect(started.status).toBe(202);
      await sleep(3_000);
      const first = (await runs()).find((r) => r.id === started.body.run_id)!;
      const victim = daemons.find((d) => d.proc.proc.pid === Number(first.holder.split(':')[1]))!;
      const other = daemons.find((d) => d !== victim)!;
      const stoppedAt = Date.now();
      await victim.proc.stop();
      await waitUntil('the run resumed on the other daemon', 20_000, async () => (await runs()).some((r) => r.connection_id === 'slow' && r.id > first.id && r.status === 'succeeded'));
      const all = await runs();
      const resumed = all.find((r) => r.connection_id === 'slow' && r.id > first.id)!;
      expect(all.find((r) => r.id === first.id)!.status).toBe('interrupted');
      expect(Number(resumed.holder.split(':')[1])).toBe(other.proc.proc.pid);
      expect(Date.parse(resumed.started_at) - stoppedAt).toBeLessThan(10_000); // not after the 30-s backoff
      const sent = await sql<{ id: number; streams: string }[]>(store, `SELECT id, streams FROM run WHERE id IN (${first.id}, ${resumed.id})`);
      expect(sent.reduce((n, r) => n + (JSON.parse(r.streams).deals?.sent ?? 0), 0)).toBe(SLOW_DEALS);
      expect(overlapping(all)).toEqual([]);
    });
  },
  { ownRedis: true },
);
