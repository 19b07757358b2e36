/**
 * Cluster mode on real PostgreSQL and Redis: three daemon processes (the built daemon), one standalone
 * sandbox as the service, 30 connections on a seconds cron, every 20 s (the issue asks for a one-minute
 * schedule over five minutes; a 20-s tick over three ticks keeps `npm test` within its ten minutes and proves
 * the same: each tick is one BullMQ job whichever daemons are up). Checked: a manual trigger runs once and the
 * other daemons answer 409 naming it; 200 webhook calls spread over the three daemons make at most two runs;
 * every tick of every connection runs exactly once; a daemon SIGKILLed mid-run has its runs resumed on another
 * within 30 s (cluster.stalled_after), the dead run's row closed before the new one begins (no two runs of a
 * connection overlap); every deal reaches the service once. About two and a half minutes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TrackerClient } from '../../../src/tracker/tracker-client';
import { suiteRedis } from '../../support/redis-server';
import { freePort } from '../../support/spawn-entry';
import { TestSchema } from '../../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './processes';
import { api, API_KEY, clusterConfigYaml, dealsFile, keepLogs, overlapping, pidOf, PROJECT, runsOf, sleep, WEBHOOK_SECRET } from './cluster-mode';

const CONNECTIONS = 30;
const DEALS = 80; // per connection: 8 batches of 10 at 250 ms each, so a run lasts ~2 s
const LATENCY_MS = 250;
const TICK_MS = 20_000;
const SCHEDULE = '*/20 * * * * *';
const TICKS = 3;
const ids = Array.from({ length: CONNECTIONS }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);

interface Daemon {
  proc: Proc;
  url: string;
  pid: number;
}

export function queueClusterSuite(): void {
  jest.setTimeout(300_000);
  const schema = new TestSchema();
  let dir: string;
  let store: DataSource;
  let sandbox: Proc;
  let sandboxUrl: string;
  let redis: { url: string; dispose: () => Promise<void> };
  const daemons: Daemon[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-queue-'));
    const storeUrl = await schema.create();
    redis = await suiteRedis(2);
    for (const id of [...ids, 'hooked']) writeFileSync(join(dir, `${id}.jsonl`), ''); // filled before the counted ticks
    writeFileSync(join(dir, 'manual.jsonl'), dealsFile('manual', DEALS));
    buildIfStale();
    const port = await freePort();
    sandboxUrl = `http://127.0.0.1:${port}/api/v1`;
    const config = clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: ids, schedule: SCHEDULE, manual: ['manual'], webhook: { id: 'hooked', debounce: '2s' } });
    writeFileSync(join(dir, 'config.yaml'), config);
    sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--budget', 'off', '--seed', 'none', '--api-key', API_KEY, '--latency', String(LATENCY_MS)], {});
    const procs = [1, 2, 3].map((n) =>
      spawnEntry(`daemon-${n}`, 'main', ['--config', join(dir, 'config.yaml')], { DATA_DIR: join(dir, `data-${n}`), DATABASE_URL: storeUrl, PORT: '0' }),
    );
    expect((await sandbox.waitFor(/project: (\d+)/, 90_000))[1]).toBe(PROJECT);
    for (const proc of procs) {
      const url = (await proc.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1];
      daemons.push({ proc, url, pid: proc.proc.pid! });
    }
    store = await new DataSource({ type: 'postgres', url: storeUrl, extra: { max: 2 } }).initialize();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.proc.stop()));
    await sandbox?.stop();
    keepLogs('queue-cluster', [sandbox, ...daemons.map((d) => d.proc)]);
    if (store?.isInitialized) await store.destroy();
    await schema.drop();
    await redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const runs = () => runsOf(store);
  const waitForRun = async (url: string, runId: number) => {
    for (const until = Date.now() + 30_000; (await api(url, 'GET', `/api/runs/${runId}`)).body.status === 'running'; ) {
      if (Date.now() > until) throw new Error(`run ${runId} did not finish in 30 s`);
      await sleep(200);
    }
  };

  it('a trigger on one daemon runs once; the others answer 409 naming its run', async () => {
    const triggered = await api(daemons[0].url, 'POST', '/api/connections/manual/sync');
    expect(triggered.status).toBe(202);
    const elsewhere = await Promise.all(daemons.slice(1).map((d) => api(d.url, 'POST', '/api/connections/manual/sync')));
    expect(elsewhere.map((r) => [r.status, r.body?.run_id])).toEqual([[409, triggered.body.run_id], [409, triggered.body.run_id]]);
    await waitForRun(daemons[1].url, triggered.body.run_id);
    expect((await runs()).filter((r) => r.connection_id === 'manual').map((r) => [r.id, r.status])).toEqual([[triggered.body.run_id, 'succeeded']]);
  });

  it('200 webhook calls spread over the three daemons make at most two runs', async () => {
    writeFileSync(join(dir, 'hooked.jsonl'), dealsFile('hooked', DEALS));
    let accepted = 0;
    for (let i = 0; i < 200; i++) {
      const daemon = daemons[i % 3];
      const res = await fetch(`${daemon.url}/hooks/hooked/${WEBHOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (res.status === 202) accepted += 1;
      else expect(res.status).toBe(429); // over 10 calls a second on one daemon
      await sleep(25);
    }
    expect(accepted).toBeGreaterThan(100);
    // the debounce (2 s after the burst's last call) and the run (~2 s)
    for (const until = Date.now() + 30_000; ; await sleep(250)) {
      const hooked = (await runs()).filter((r) => r.connection_id === 'hooked');
      if (hooked.length && hooked.every((r) => r.status !== 'running') && Date.now() > until - 20_000) break;
      if (Date.now() > until) throw new Error(`the webhook's run did not end: ${JSON.stringify(hooked)}`);
    }
    const hooked = (await runs()).filter((r) => r.connection_id === 'hooked');
    expect(hooked.length).toBeGreaterThanOrEqual(1);
    expect(hooked.length).toBeLessThanOrEqual(2);
    expect(hooked.every((r) => r.trigger === 'webhook' && r.status === 'succeeded')).toBe(true);
  });

  it('runs every tick of every connection once, resumes a SIGKILLed daemon\'s runs within 30 s, and delivers every deal once', async () => {
    // the first counted tick: the next 20-s boundary that leaves a moment to write the sources
    let first = Math.ceil((Date.now() + 1) / TICK_MS) * TICK_MS;
    if (first - Date.now() < 2_000) first += TICK_MS;
    const end = first + TICKS * TICK_MS; // ticks first, first + 20 s, first + 40 s
    for (const id of ids) writeFileSync(join(dir, `${id}.jsonl`), dealsFile(id, DEALS));

    await sleep(first - Date.now());
    let victim: Daemon | undefined;
    for (const killBy = first + 15_000; !victim; await sleep(100)) {
      if (Date.now() > killBy) throw new Error(`no scheduled run was seen running after ${new Date(first).toISOString()}`);
      const going = new Map<number, number>();
      for (const r of (await runs()).filter((r) => r.trigger === 'schedule' && r.started_at >= new Date(first).toISOString() && r.status === 'running')) {
        going.set(pidOf(r), (going.get(pidOf(r)) ?? 0) + 1);
      }
      const busiest = [...going].sort((a, b) => b[1] - a[1])[0];
      if (busiest && busiest[1] >= 2) victim = daemons.find((d) => d.pid === busiest[0]);
    }
    await sleep(300); // let a few batches be acknowledged: the takeover must resume, not restart
    victim.proc.proc.kill('SIGKILL');
    const killedAt = Date.now();
    await victim.proc.exited;
    const victimRuns = (await runs()).filter((r) => r.status === 'running' && pidOf(r) === victim!.pid);
    expect(victimRuns.length).toBeGreaterThan(0);
    const survivors = daemons.filter((d) => d !== victim);

    // every victim run resumed on a survivor within 30 s of the kill
    for (const until = killedAt + 35_000; ; await sleep(250)) {
      const all = await runs();
      const resumedAll = victimRuns.every((v) => all.some((r) => r.connection_id === v.connection_id && r.id > v.id));
      if (resumedAll) break;
      if (Date.now() > until) throw new Error(`the killed daemon's runs were not taken over: ${JSON.stringify(all.filter((r) => victimRuns.some((v) => v.connection_id === r.connection_id)))}`);
    }
    // the last counted tick's runs end
    await sleep(Math.max(0, end - Date.now()));
    for (const until = Date.now() + 60_000; ; await sleep(250)) {
      const going = (await runs()).filter((r) => r.status === 'running' && r.started_at < new Date(end).toISOString());
      if (!going.length) break;
      if (Date.now() > until) throw new Error(`runs did not end: ${JSON.stringify(going)}`);
    }

    const all = await runs();
    const counted = all.filter((r) => r.trigger === 'schedule' && r.started_at >= new Date(first).toISOString() && r.started_at < new Date(end).toISOString());
    // each tick of each connection: exactly one run that ended (the victim's cut runs are 'interrupted', resumed once)
    for (const id of ids) {
      const ofConnection = counted.filter((r) => r.connection_id === id);
      const cut = victimRuns.filter((v) => v.connection_id === id).length;
      expect({ id, succeeded: ofConnection.filter((r) => r.status === 'succeeded').length, interrupted: ofConnection.filter((r) => r.status === 'interrupted').length }).toEqual({ id, succeeded: TICKS, interrupted: cut });
    }
    expect(all.filter((r) => r.status === 'failed')).toEqual([]);
    // the cut runs: closed when a survivor took the job over, within 30 s of the kill, and resumed there
    for (const cut of victimRuns) {
      const row = all.find((r) => r.id === cut.id)!;
      const resumed = all.find((r) => r.connection_id === cut.connection_id && r.id > cut.id)!;
      expect(row.status).toBe('interrupted');
      expect(survivors.map((d) => d.pid)).toContain(pidOf(resumed));
      expect(Date.parse(resumed.started_at) - killedAt).toBeLessThanOrEqual(30_000);
      expect(row.finished_at! <= resumed.started_at).toBe(true);
    }
    expect(overlapping(all)).toEqual([]);

    // every deal is in the service, once
    const tracker = new TrackerClient({ baseUrl: sandboxUrl, apiKey: API_KEY, project: PROJECT, rateLimit: 'off', retries: 3, timeoutMs: 15_000 });
    try {
      expect((await tracker.orders.list({ limit: 1 })).total).toBe((CONNECTIONS + 2) * DEALS);
    } finally {
      await tracker.close();
    }
    const health = await api(survivors[0].url, 'GET', '/health');
    expect([health.status, health.body.info.redis?.status]).toEqual([200, 'up']);
  });
}
