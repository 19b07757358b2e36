/**
 * Cluster mode from the CLI: `sync` adds a run job and takes none (only daemons take jobs). With no daemon up it
 * says, within seconds, that its run waits in the cluster's queue and why, instead of waiting without a word;
 * the first daemon to start takes the job, and the CLI reports the run as it ended there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { describeCluster, suiteRedis } from '../support/redis-server';
import { TestSchema } from '../support/store-drivers';
import { Daemons, keepLogs, Proc, spawnEntry, startDaemons } from './support/processes';
import { API_KEY, clusterConfigYaml, dealsFile, pidOf, PROJECT, runsOf } from './support/cluster-mode';

describeCluster('cluster mode: a CLI sync waits for a daemon and says so', () => {
  jest.setTimeout(120_000);
  const schema = new TestSchema();
  let dir: string;
  let storeUrl: string;
  let cluster: Daemons;
  let redis: { url: string; dispose: () => Promise<void> };
  const procs: Proc[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queue-cli-'));
    storeUrl = await schema.create();
    redis = await suiteRedis(12);
    writeFileSync(join(dir, 'manual.jsonl'), dealsFile('manual', 30));
    // the sandbox and the store, no daemon yet
    cluster = await startDaemons({
      dir, storeUrl, daemons: 0, apiKey: API_KEY, latencyMs: 0, project: PROJECT,
      config: (sandboxUrl) => clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: [], schedule: '', manual: ['manual'] }),
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    keepLogs('queue-cli-processes', procs);
    await cluster?.stop('queue-cli');
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
    expect(await runsOf(cluster.store)).toEqual([]);

    const daemon = spawnEntry('daemon', 'main', ['--config', join(dir, 'config.yaml')], env('daemon'));
    procs.push(daemon);
    await cli.waitFor(/run (\d+) succeeded/, 90_000);
    expect((await cli.exited).code).toBe(0);
    const runs = await runsOf(cluster.store);
    expect(runs.map((r) => [r.connection_id, r.trigger, r.status])).toEqual([['manual', 'cli', 'succeeded']]);
    expect(pidOf(runs[0])).toBe(daemon.proc.pid);
    const tracker = new TrackerClient({ baseUrl: cluster.sandboxUrl, apiKey: API_KEY, project: PROJECT, rateLimit: 'off', retries: 3, timeoutMs: 15_000 });
    try {
      expect((await tracker.orders.list({ limit: 1 })).total).toBe(30);
    } finally {
      await tracker.close();
    }
  });
});
