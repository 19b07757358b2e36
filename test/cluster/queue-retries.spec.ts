/**
 * Cluster mode: a run that fails is tried again after the job's backoff (exponential from
 * `cluster.stalled_after`, here 5 s: 5 s, then 10 s; three attempts in all), each attempt a run row of its own
 * (the history users read). One daemon on real PostgreSQL and Redis: `flaky` fails once (its source is missing)
 * and its retry succeeds once the source is there; `broken` fails three times, then no more.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { describeCluster, suiteRedis } from '../support/redis-server';
import { freePort } from '../support/spawn-entry';
import { TestSchema } from '../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './support/processes';
import { api, API_KEY, clusterConfigYaml, dealsFile, keepLogs, PROJECT, runsOf, sleep } from './support/cluster-mode';

describeCluster('cluster mode: retries of a failed run follow the job\'s backoff', () => {
  jest.setTimeout(180_000);
  const schema = new TestSchema();
  let dir: string;
  let store: DataSource;
  let sandbox: Proc;
  let daemon: Proc;
  let url: string;
  let redis: { url: string; dispose: () => Promise<void> };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queue-retries-'));
    const storeUrl = await schema.create();
    redis = await suiteRedis('queue-retries');
    buildIfStale();
    const port = await freePort();
    const sandboxUrl = `http://127.0.0.1:${port}/api/v1`;
    // no source files yet: both connections' first runs fail
    writeFileSync(join(dir, 'config.yaml'), clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: [], schedule: '', manual: ['flaky', 'broken'], stalledAfter: '5s' }));
    sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--budget', 'off', '--seed', 'none', '--api-key', API_KEY], {});
    daemon = spawnEntry('daemon', 'main', ['--config', join(dir, 'config.yaml')], { DATA_DIR: join(dir, 'data'), DATABASE_URL: storeUrl, PORT: '0' });
    expect((await sandbox.waitFor(/project: (\d+)/, 90_000))[1]).toBe(PROJECT);
    url = (await daemon.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1];
    store = await new DataSource({ type: 'postgres', url: storeUrl, extra: { max: 2 } }).initialize();
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await sandbox?.stop();
    keepLogs('queue-retries', [sandbox, daemon]);
    if (store?.isInitialized) await store.destroy();
    await schema.drop();
    await redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tries a failed run again after 5 s and then 10 s, three attempts at most; a retry that succeeds ends them', async () => {
    const flaky = await api(url, 'POST', '/api/connections/flaky/sync');
    const broken = await api(url, 'POST', '/api/connections/broken/sync');
    expect([flaky.status, broken.status]).toEqual([202, 202]);
    for (const until = Date.now() + 15_000; (await runsOf(store)).find((r) => r.id === flaky.body.run_id)?.status !== 'failed'; await sleep(100)) {
      if (Date.now() > until) throw new Error('the first run of flaky did not fail');
    }
    writeFileSync(join(dir, 'flaky.jsonl'), dealsFile('flaky', 20));
    await sleep(30_000); // 5 s + 10 s of backoff, and the runs
    const all = await runsOf(store);
    const of = (id: string) => all.filter((r) => r.connection_id === id);
    expect(of('flaky').map((r) => r.status)).toEqual(['failed', 'succeeded']);
    expect(of('broken').map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    const gaps = of('broken').slice(1).map((r, i) => Date.parse(r.started_at) - Date.parse(of('broken')[i].finished_at!));
    expect(gaps[0]).toBeGreaterThanOrEqual(4_500);
    expect(gaps[1]).toBeGreaterThanOrEqual(9_500);
    expect(of('broken').every((r) => r.trigger === 'admin')).toBe(true);
  });
});
