/**
 * Cluster mode, a daemon started while its Redis is away (Redis not up yet, a wrong host): BullMQ's calls wait for
 * a queue's first connection without end, so before this the admin API's sync, GET /api/cluster, GET /api/webhooks
 * and /metrics hung, and ioredis printed every reconnect attempt as an unhandled error. Now each answers within
 * seconds (/metrics without the queue series; the others 503 naming Redis), /health names the connection's error,
 * the log says once that Redis is unreachable, and once Redis is up the daemon runs what it is asked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCluster, RedisServer } from '../support/redis-server';
import { freePort } from '../support/spawn-entry';
import { TestSchema } from '../support/store-drivers';
import { Daemons, Proc, startDaemons } from './support/processes';
import { api, API_KEY, clusterConfigYaml, dealsFile, PROJECT, runsOf, sleep } from './support/cluster-mode';

describeCluster('cluster mode: a daemon started while Redis is away', () => {
  jest.setTimeout(120_000);
  const schema = new TestSchema();
  const redis = new RedisServer();
  let dir: string;
  let cluster: Daemons;
  let daemon: Proc;
  let url: string;
  const runs = () => runsOf(cluster.store);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-redis-away-'));
    const storeUrl = await schema.create();
    redis.port = await freePort(); // nothing listens there yet
    writeFileSync(join(dir, 'manual.jsonl'), dealsFile('manual', 20));
    cluster = await startDaemons({
      dir, storeUrl, daemons: 1, apiKey: API_KEY, latencyMs: 0, project: PROJECT,
      config: (sandboxUrl) => clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: [], schedule: '', manual: ['manual'] }),
    });
    ({ proc: daemon, url } = cluster.daemons[0]);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop('redis-away');
    await schema.drop();
    await redis.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** the request's answer and how long it took, or the request abandoned after 8 s (a hang) */
  const timed = async (method: string, path: string) => {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const res = await Promise.race([api(url, method, path), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 8_000)))]);
    clearTimeout(timer);
    return { status: res?.status ?? 'no answer in 8 s', body: res?.body, ms: Date.now() - started };
  };

  it('answers within seconds while Redis is away, says so once, and runs once Redis is up', async () => {
    await sleep(2_000); // some reconnect attempts
    const health = await timed('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
    expect(health.body.details.redis.message).toMatch(/Redis of the cluster \(cluster\.redis\) is unreachable: connect ECONNREFUSED/);

    const sync = await timed('POST', '/api/connections/manual/sync');
    expect([sync.status, sync.body?.message]).toEqual([503, expect.stringMatching(/connection manual: the run could not be queued: the cluster's Redis \(cluster\.redis\) does not answer/)]);
    const cluster = await timed('GET', '/api/cluster');
    expect(cluster.status).toBe(503);
    expect(JSON.stringify(cluster.body)).toMatch(/Redis/);
    const started = Date.now();
    const metrics = await fetch(`${url}/metrics`).then(async (r) => ({ status: r.status, text: await r.text() }));
    expect(metrics.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(metrics.text).toMatch(/^tracker_sync_runs_total|^# TYPE tracker_sync_/m);
    expect(metrics.text).not.toMatch(/^tracker_sync_queue_jobs\{/m);
    for (const answer of [sync, cluster]) expect(answer.ms).toBeLessThan(5_000);
    expect(await runs()).toEqual([]);

    const log = daemon.output();
    expect(log).not.toMatch(/Unhandled error event/);
    expect(log.match(/"context":"ClusterRedis","msg":"Redis of the cluster \(cluster\.redis\) is unreachable \(will retry\): connect ECONNREFUSED/g)).toHaveLength(1);

    await redis.start();
    let accepted: { status: number | string; body: any } = { status: 0, body: null };
    for (const until = Date.now() + 20_000; accepted.status !== 202; await sleep(500)) {
      if (Date.now() > until) throw new Error(`the sync was not accepted once Redis was up: ${JSON.stringify(accepted)}`);
      accepted = await timed('POST', '/api/connections/manual/sync');
    }
    for (const until = Date.now() + 30_000; (await runs()).find((r) => r.id === accepted.body.run_id)?.status !== 'succeeded'; await sleep(250)) {
      if (Date.now() > until) throw new Error(`run ${accepted.body.run_id} did not succeed: ${JSON.stringify(await runs())}`);
    }
    await daemon.waitFor(/"context":"ClusterRedis","msg":"Redis of the cluster \(cluster\.redis\) answers again"/, 10_000);
    expect((await timed('GET', '/api/cluster')).status).toBe(200);
  });
});
