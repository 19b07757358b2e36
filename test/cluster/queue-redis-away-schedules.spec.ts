/**
 * Cluster mode: the job schedulers live in Redis, so while Redis is away no schedule fires. Not only /health says
 * so: GET /api/connections (what the status page reads) says the schedules are not firing and promises no next run,
 * the status page shows it above everything, and /metrics has tracker_sync_redis_up 0 (instead of the queue's
 * series only vanishing). Once Redis is back, all of it says so again. Real PostgreSQL, a redis-server of its own.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describeCluster, RedisServer } from '../support/redis-server';
import { TestSchema } from '../support/store-drivers';
import { Daemons, startDaemons } from './support/processes';
import { ADMIN_TOKEN, api, API_KEY, clusterConfigYaml, dealsFile, PROJECT, sleep } from './support/cluster-mode';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface ConnectionsJson {
  connections: { id: string; next_run_at: string | null; schedule_halted?: string | null }[];
  schedules_halted?: { reason: string; message: string } | null;
}

describeCluster('cluster mode: Redis away, the schedules do not fire, and every face says so', () => {
  jest.setTimeout(150_000);
  const schema = new TestSchema();
  const redis = new RedisServer();
  let dir: string;
  let cluster: Daemons;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-redis-schedules-'));
    const storeUrl = await schema.create();
    redis.port = 47861;
    await redis.start();
    writeFileSync(join(dir, 'yearly.jsonl'), dealsFile('yearly', 5));
    cluster = await startDaemons({
      dir, storeUrl, daemons: 1, apiKey: API_KEY, latencyMs: 0, project: PROJECT,
      config: (sandboxUrl) => clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: ['yearly'], schedule: '0 0 1 1 *' }),
    });
    url = cluster.daemons[0].url;
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop('redis-away-schedules');
    await schema.drop();
    await redis.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const redisUp = async () => /^tracker_sync_redis_up (\d)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? 'absent';
  const connections = async () => (await api(url, 'GET', '/api/connections')).body as ConnectionsJson;

  it('Redis up: the schedule fires, tracker_sync_redis_up is 1', async () => {
    const listed = await connections();
    expect(listed.schedules_halted).toBeNull();
    expect(listed.connections[0]).toMatchObject({ id: 'yearly', schedule_halted: null, next_run_at: expect.stringMatching(/-01-01T/) });
    expect(await redisUp()).toBe('1');
  });

  it('Redis away: GET /api/connections, the status page and /metrics say the schedules are not firing', async () => {
    await redis.stop();
    await sleep(1_000);
    const listed = await connections();
    expect(listed.schedules_halted).toEqual({
      reason: 'redis_unreachable', last_heartbeat_at: null,
      message: expect.stringMatching(/^the cluster's Redis \(cluster\.redis\) is unreachable \(.+\): the schedules are not firing$/),
    });
    expect(listed.connections[0]).toMatchObject({ id: 'yearly', next_run_at: null, schedule_halted: listed.schedules_halted!.message });
    expect(await redisUp()).toBe('0');

    if (!existsSync(CHROMIUM)) return; // the API above is what the page shows
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await page.locator('#token').fill(ADMIN_TOKEN);
      await page.locator('#login-form button[type=submit]').click();
      await page.locator('#halted').waitFor({ state: 'visible', timeout: 15_000 });
      expect(await page.locator('#halted').innerText()).toMatch(/^Scheduled runs are not happening: the cluster's Redis \(cluster\.redis\) is unreachable/);
      expect(await page.locator('#connections tbody tr[data-id="yearly"]').innerText()).toMatch(/none: the schedule is not firing/);
    } finally {
      await browser.close();
    }
  });

  it('Redis back: the schedule fires again, tracker_sync_redis_up is 1', async () => {
    await redis.start();
    let listed = await connections();
    for (const until = Date.now() + 20_000; listed.schedules_halted; await sleep(250)) {
      if (Date.now() > until) throw new Error(`still halted: ${JSON.stringify(listed)}`);
      listed = await connections();
    }
    expect(listed.connections[0]).toMatchObject({ schedule_halted: null, next_run_at: expect.stringMatching(/-01-01T/) });
    expect(await redisUp()).toBe('1');
  });
});
