/**
 * Cluster mode, one daemon on real PostgreSQL and Redis:
 * - a run that fails is tried again after the job's backoff (exponential from `cluster.stalled_after`, here 5 s:
 *   5 s, then 10 s; three attempts in all), each attempt a run row of its own (the history users read): `flaky`
 *   fails once (its source is missing) and its retry succeeds once the source is there; `broken` fails three
 *   times, then no more;
 * - triggers that want a follow-up while a run goes (webhook bursts, one after another) leave one run behind it,
 *   never a pile, and it begins after the first ends.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { describeCluster, suiteRedis } from '../support/redis-server';
import { freePort } from '../support/spawn-entry';
import { TestSchema } from '../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './support/processes';
import { api, API_KEY, clusterConfigYaml, dealsFile, keepLogs, overlapping, PROJECT, runsOf, sleep, WEBHOOK_SECRET } from './support/cluster-mode';

describeCluster('cluster mode: one daemon (retries, follow-ups)', () => {
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
    redis = await suiteRedis(3);
    buildIfStale();
    const port = await freePort();
    const sandboxUrl = `http://127.0.0.1:${port}/api/v1`;
    // no source files yet: both connections' first runs fail
    writeFileSync(join(dir, 'busy.jsonl'), dealsFile('busy', 400)); // 40 batches at 150 ms: a run of 6 s or more
    const config = clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: [], schedule: '', manual: ['flaky', 'broken'], stalledAfter: '5s', webhook: { id: 'busy', debounce: '500ms' } });
    writeFileSync(join(dir, 'config.yaml'), config);
    sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--budget', 'off', '--seed', 'none', '--api-key', API_KEY, '--latency', '150'], {});
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

  it('webhook bursts while a run goes leave one follow-up, which runs after it', async () => {
    const hook = () => fetch(`${url}/hooks/busy/${WEBHOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await hook()).status).toBe(202);
    for (const until = Date.now() + 10_000; !(await runsOf(store)).some((r) => r.connection_id === 'busy'); await sleep(50)) {
      if (Date.now() > until) throw new Error('the first webhook run did not start');
    }
    // three more bursts, each debounced (500 ms) while the first run still goes: each asks for a follow-up
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 3; i++) expect((await hook()).status).toBe(202);
      await sleep(1_000);
    }
    expect((await runsOf(store)).filter((r) => r.connection_id === 'busy').map((r) => r.status)).toEqual(['running']);
    const status = (await api(url, 'GET', '/api/webhooks')).body.find((w: { connection: string }) => w.connection === 'busy');
    expect([status.follow_up_queued, status.run_due]).toEqual([true, false]);
    for (const until = Date.now() + 40_000; ; await sleep(250)) {
      const busy = (await runsOf(store)).filter((r) => r.connection_id === 'busy');
      if (busy.length >= 2 && busy.every((r) => r.status !== 'running')) break;
      if (Date.now() > until) throw new Error(`the follow-up did not run: ${JSON.stringify(busy)}`);
    }
    await sleep(3_000); // no third run comes
    const busy = (await runsOf(store)).filter((r) => r.connection_id === 'busy');
    expect(busy.map((r) => [r.trigger, r.status])).toEqual([['webhook', 'succeeded'], ['webhook', 'succeeded']]);
    expect(overlapping(busy)).toEqual([]);
  });
});
