/**
 * Cluster mode (`cluster.redis`) as the "Done when" words it, on real PostgreSQL and Redis: three daemon
 * processes (the built daemon), one standalone sandbox as the service, 30 connections on a one-minute schedule
 * ("* * * * *") for five counted minute ticks. The other checks run inside the same five minutes, not before or
 * after them (one start-up of the four processes, about six minutes in all):
 * - minute 0: the tick's runs spread over the three daemons; beside them, a manual trigger on one daemon runs
 *   once and the other two answer 409 naming its run, and 200 webhook calls spread over the three daemons make at
 *   most two runs;
 * - minute 1: every connection has new deals; the daemon running the most of the tick's runs is SIGKILLed mid-run:
 *   its cut runs end 'interrupted' and are resumed once, on a survivor, within 30 s of the kill
 *   (cluster.stalled_after), the cut row closed before the new one begins;
 * - minutes 2 to 4 on the two survivors.
 * Checked at the end: every tick of every connection ran exactly once (one run that did not end 'interrupted'
 * per connection and minute), no two runs of a connection overlap, no run failed, every deal is in the service
 * once. Lease mode's three-daemon test (the store alone) is three-daemons.spec.ts.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { describeCluster, suiteRedis } from '../support/redis-server';
import { TestSchema } from '../support/store-drivers';
import { Daemon, Daemons, startDaemons } from './support/processes';
import { api, API_KEY, clusterConfigYaml, dealsFile, overlapping, pidOf, PROJECT, RunRow, runsOf, sleep, WEBHOOK_SECRET } from './support/cluster-mode';

const CONNECTIONS = 30;
const DEALS = 80; // per connection and batch of deals: 8 batches of 10 at 250 ms each, so a run lasts ~2 s
/**
 * The manual trigger's run: 40 batches, 10 s or more, so that it still goes when the two other daemons answer (beside
 * minute 0's thirty runs a loaded machine took over 2 s to: a run of 80 deals had ended, and one of them started a
 * second run)
 */
const MANUAL_DEALS = 400;
const LATENCY_MS = 250;
const MINUTE = 60_000;
const TICKS = 5;
const ids = Array.from({ length: CONNECTIONS }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);

describeCluster('cluster mode: three daemons, 30 connections, five minute ticks (BullMQ)', () => {
  const schema = new TestSchema();
  let dir: string;
  let redis: { url: string; dispose: () => Promise<void> };
  let cluster: Daemons;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-cluster-mode-'));
    const storeUrl = await schema.create();
    redis = await suiteRedis(2);
    for (const id of [...ids, 'hooked']) writeFileSync(join(dir, `${id}.jsonl`), ''); // filled before the counted ticks
    writeFileSync(join(dir, 'manual.jsonl'), dealsFile('manual', MANUAL_DEALS));
    cluster = await startDaemons({
      dir,
      storeUrl,
      daemons: 3,
      apiKey: API_KEY,
      latencyMs: LATENCY_MS,
      project: PROJECT,
      config: (sandboxUrl) => clusterConfigYaml({ dir, sandboxUrl, redisUrl: redis.url, scheduled: ids, schedule: '* * * * *', manual: ['manual'], webhook: { id: 'hooked', debounce: '2s' } }),
    });
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop('cluster-mode-daemons');
    await schema.drop();
    await redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const runs = () => runsOf(cluster.store);
  const waitUntil = async (what: string, until: number, ok: (all: RunRow[]) => boolean) => {
    for (;;) {
      const all = await runs();
      if (ok(all)) return;
      if (Date.now() > until) throw new Error(`${what}: not by ${new Date(until).toISOString()}; runs: ${JSON.stringify(all.filter((r) => r.status !== 'succeeded'))}`);
      await sleep(250);
    }
  };

  /** Minute 0, three daemons up: a manual trigger runs once, the others answer 409 naming its run. */
  async function triggerOnOneDaemon(daemons: Daemon[]): Promise<number> {
    const triggered = await api(daemons[0].url, 'POST', '/api/connections/manual/sync');
    expect(triggered.status).toBe(202);
    const elsewhere = await Promise.all(daemons.slice(1).map((d) => api(d.url, 'POST', '/api/connections/manual/sync')));
    expect(elsewhere.map((r) => [r.status, r.body?.run_id])).toEqual([[409, triggered.body.run_id], [409, triggered.body.run_id]]);
    await waitUntil('the triggered run ends', Date.now() + 30_000, (all) => all.some((r) => r.id === triggered.body.run_id && r.status !== 'running'));
    return triggered.body.run_id;
  }

  /** Minute 0: 200 webhook calls for one connection, spread over the three daemons, make at most two runs. */
  async function webhookBurst(daemons: Daemon[]): Promise<void> {
    writeFileSync(join(dir, 'hooked.jsonl'), dealsFile('hooked', DEALS));
    let accepted = 0;
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${daemons[i % 3].url}/hooks/hooked/${WEBHOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (res.status === 202) accepted += 1;
      else expect(res.status).toBe(429); // over 10 calls a second on one daemon
      await sleep(25);
    }
    expect(accepted).toBeGreaterThan(100);
    // the debounce (2 s after the burst's last call), the run (~2 s), and time for a second run that must not come
    const quietFrom = Date.now() + 8_000;
    await waitUntil('the webhook runs end', Date.now() + 30_000, (all) => {
      const hooked = all.filter((r) => r.connection_id === 'hooked');
      return Date.now() > quietFrom && hooked.length > 0 && hooked.every((r) => r.status !== 'running');
    });
    const hooked = (await runs()).filter((r) => r.connection_id === 'hooked');
    expect(hooked.length).toBeLessThanOrEqual(2);
    expect(hooked.map((r) => [r.trigger, r.status])).toEqual(hooked.map(() => ['webhook', 'succeeded']));
  }

  it('runs every minute tick of every connection once over five minutes, beside a trigger, a webhook burst and a SIGKILL taken over within 30 s', async () => {
    const { daemons } = cluster;
    // the first counted tick: the next minute boundary that leaves a moment to write the sources
    let first = Math.ceil((Date.now() + 1) / MINUTE) * MINUTE;
    if (first - Date.now() < 2_000) first += MINUTE;
    const minute = (k: number) => first + k * MINUTE;
    const iso = (at: number) => new Date(at).toISOString();
    const end = minute(TICKS);
    for (const id of ids) writeFileSync(join(dir, `${id}.jsonl`), dealsFile(id, DEALS));

    // minute 0, the three daemons up: the tick's runs, and beside them the trigger and the webhook burst
    await sleep(first - Date.now());
    const ranMinute0 = (all: RunRow[]) => new Set(all.filter((r) => r.trigger === 'schedule' && r.started_at >= iso(first) && r.status === 'succeeded').map((r) => r.connection_id)).size === CONNECTIONS;
    const [manualRunId] = await Promise.all([triggerOnOneDaemon(daemons), webhookBurst(daemons), waitUntil("minute 0's runs", first + 50_000, ranMinute0)]);

    // minute 1: new deals for every connection, so that the tick's runs last long enough to be cut
    const added = new Date();
    for (const id of ids) appendFileSync(join(dir, `${id}.jsonl`), dealsFile(id, DEALS, DEALS + 1, added));
    expect(Date.now()).toBeLessThan(minute(1) - 1_000); // minute 0's checks end before minute 1's tick
    await sleep(minute(1) - Date.now());
    let victim: Daemon | undefined;
    for (const killBy = minute(1) + 20_000; !victim; await sleep(100)) {
      if (Date.now() > killBy) throw new Error(`no scheduled run was seen running after ${iso(minute(1))}`);
      const going = new Map<number, number>();
      for (const r of (await runs()).filter((r) => r.trigger === 'schedule' && r.started_at >= iso(minute(1)) && r.status === 'running')) {
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
    await waitUntil("the killed daemon's runs taken over", killedAt + 35_000, (all) => victimRuns.every((v) => all.some((r) => r.connection_id === v.connection_id && r.id > v.id)));

    // minutes 2 to 4 on the survivors; then the runs of the last counted tick end
    await sleep(Math.max(0, end - Date.now()));
    await waitUntil('the counted runs end', Date.now() + 60_000, (all) => !all.some((r) => r.status === 'running' && r.started_at < iso(end)));

    const all = await runs();
    const counted = all.filter((r) => r.trigger === 'schedule' && r.started_at >= iso(first) && r.started_at < iso(end));
    // each tick of each connection: exactly one run that was not cut by the kill, and it succeeded
    for (let k = 0; k < TICKS; k++) {
      const ofMinute = counted.filter((r) => r.started_at >= iso(minute(k)) && r.started_at < iso(minute(k + 1)) && r.status !== 'interrupted');
      const wrong = ids.filter((id) => ofMinute.filter((r) => r.connection_id === id && r.status === 'succeeded').length !== 1 || ofMinute.filter((r) => r.connection_id === id).length !== 1);
      if (wrong.length) throw new Error(`minute ${k} (${iso(minute(k))}): ${wrong.join(', ')} did not run exactly once; runs: ${JSON.stringify(counted.filter((r) => wrong.includes(r.connection_id)))}`);
    }
    expect(counted.filter((r) => r.status === 'interrupted').map((r) => r.id).sort()).toEqual(victimRuns.map((r) => r.id).sort());
    expect(all.filter((r) => r.status === 'failed')).toEqual([]);
    // the cut runs: closed when a survivor took the job over, within 30 s of the kill, and resumed there once
    for (const cut of victimRuns) {
      const row = all.find((r) => r.id === cut.id)!;
      const resumed = all.filter((r) => r.connection_id === cut.connection_id && r.id > cut.id && r.started_at < iso(minute(2)));
      expect(row.status).toBe('interrupted');
      expect(resumed.map((r) => [r.trigger, r.status])).toEqual([['schedule', 'succeeded']]);
      expect(survivors.map((d) => d.pid)).toContain(pidOf(resumed[0]));
      expect(Date.parse(resumed[0].started_at) - killedAt).toBeLessThanOrEqual(30_000);
      expect(row.finished_at! <= resumed[0].started_at).toBe(true);
    }
    expect(overlapping(all)).toEqual([]);
    expect(all.filter((r) => r.connection_id === 'manual').map((r) => [r.id, r.status])).toEqual([[manualRunId, 'succeeded']]);

    // every deal is in the service, once: two batches per scheduled connection, one of each other
    const tracker = new TrackerClient({ baseUrl: cluster.sandboxUrl, apiKey: API_KEY, project: PROJECT, rateLimit: 'off', retries: 3, timeoutMs: 15_000 });
    try {
      expect((await tracker.orders.list({ limit: 1 })).total).toBe((2 * CONNECTIONS + 1) * DEALS + MANUAL_DEALS);
    } finally {
      await tracker.close();
    }
    const health = await api(survivors[0].url, 'GET', '/health');
    expect([health.status, health.body.info.redis?.status]).toEqual([200, 'up']);
  }, 8 * MINUTE);
});
