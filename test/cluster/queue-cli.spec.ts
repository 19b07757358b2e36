/**
 * Cluster mode from the CLI: `sync` adds a run job and takes none (only daemons take jobs). With no daemon up it
 * says, within seconds, that its run waits in the cluster's queue and why, instead of waiting without a word;
 * the first daemon to start takes the job, and the CLI reports the run as it ended there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { describeCluster, suiteRedis } from '../support/redis-server';
import { freePort } from '../support/spawn-entry';
import { TestSchema } from '../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './support/processes';
import { API_KEY, clusterConfigYaml, dealsFile, keepLogs, pidOf, PROJECT, runsOf } from './support/cluster-mode';

describeCluster('cluster mode: a CLI sync waits for a daemon and says so', () => {
  jest.setTimeout(120_000);
  const schema = new TestSchema();
  let dir: string;
  let storeUrl: string;
  let store: DataSource;
  let sandbox: Proc;
  let sandboxUrl: string;
  let redis: { url: string; dispose: () => Promise<void> };
  const procs: Proc[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queue-cli-'));
    storeUrl = await schema.create();
    redis = await suiteRedis(12);
    buildIfStale();
    const port = await freePort();
    sandboxUrl = `http://127.0.0.1:${port}/api/v1`;
    writeFileSync(join(dir, 'manual.jsonl'), dealsFile('manual', 30));
    writeFileSync(join(dir, 'config.yaml'), clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: [], schedule: '', manual: ['manual'] }));
    sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--budget', 'off', '--seed', 'none', '--api-key', API_KEY], {});
    expect((await sandbox.waitFor(/project: (\d+)/, 90_000))[1]).toBe(PROJECT);
    store = await new DataSource({ type: 'postgres', url: storeUrl, extra: { max: 2 } }).initialize();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await sandbox?.stop();
    keepLogs('queue-cli', [sandbox, ...procs]);
    if (store?.isInitialized) await store.destroy();
    await schema.drop();
    await redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says its run waits for a daemon, and reports the run once a daemon took it', async () => {
    const env = (name: string) => ({ DATA_DIR: join(dir, `data-${name}`), DATABASE_URL: storeUrl, PORT: '0' });
    const cli = spawnEntry('cli', 'cli', ['sync', 'manual', '--config', join(dir, 'config.yaml')], env('cli'));
    procs.push(cli);
    await cli.waitFor(/connection manual: the run waits in the cluster's queue \(job [\w-]+\): no daemon of the cluster is taking runs now; it starts when one does/, 30_000);
    expect(cli.proc.exitCode).toBeNull();
    expect(await runsOf(store)).toEqual([]);

    const daemon = spawnEntry('daemon', 'main', ['--config', join(dir, 'config.yaml')], env('daemon'));
    procs.push(daemon);
    await cli.waitFor(/run (\d+) succeeded/, 90_000);
    expect((await cli.exited).code).toBe(0);
    const runs = await runsOf(store);
    expect(runs.map((r) => [r.connection_id, r.trigger, r.status])).toEqual([['manual', 'cli', 'succeeded']]);
    expect(pidOf(runs[0])).toBe(daemon.proc.pid);
    const tracker = new TrackerClient({ baseUrl: sandboxUrl, apiKey: API_KEY, project: PROJECT, rateLimit: 'off', retries: 3, timeoutMs: 15_000 });
    try {
      expect((await tracker.orders.list({ limit: 1 })).total).toBe(30);
    } finally {
      await tracker.close();
    }
  });
});
