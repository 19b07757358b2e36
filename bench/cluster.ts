/**
 * `npm run bench:cluster [-- --minutes 2 --connections 60 --daemons 1,2,3]`
 * Several daemons on one PostgreSQL store and one Redis (cluster.redis), against the standalone sandbox (its
 * budget on) behind a proxy that notes every request. For each number of daemons: 60 spreadsheet connections on a
 * one-minute schedule, each CSV growing by a few deals a minute, for --minutes; then one daemon is SIGKILLed in the
 * middle of a run (with one daemon, it is restarted at once, as systemd would). Prints JSON per case:
 * - runs_per_minute: runs that succeeded (ended within the window), per minute of the window;
 * - max_requests_per_second: the most requests of any one project in any sliding second, as the sandbox got them;
 * - resume_seconds: from the SIGKILL to the start of the killed connection's next run (another daemon's).
 * PostgreSQL: BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL, else .ci/postgres.sh is started. Redis: a
 * redis-server of its own on a free port.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { countingProxy, SeenRequest } from './counting-proxy';
import { startRedis } from './redis-server';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const MINUTES = Number(option('--minutes', '2'));
const CONNECTIONS = Number(option('--connections', '60'));
const DAEMON_COUNTS = option('--daemons', '1,2,3').split(',').map(Number);
const DEALS_A_MINUTE = 10; // per connection: one add-orders batch a tick
const DIST = resolve(__dirname, '..');
const ROOT = resolve(DIST, '..');
const API_KEY = 'bench-cluster-sandbox-key';
const ADMIN_TOKEN = 'bench-cluster-admin-token';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  /** resolves with the first match of `pattern` in its output */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpMatchArray>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function start(script: string, argv: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, ['--max-old-space-size=192', '--no-allocation-site-pretenuring', script, ...argv], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    waitFor: (pattern, ms) =>
      new Promise((resolvePromise, reject) => {
        const check = () => {
          const m = pattern.exec(output);
          if (!m) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolvePromise(m);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`${script}: no ${pattern} in ${ms} ms; last output:\n${output.slice(-2000)}`));
        }, ms);
        listeners.add(check);
        check();
      }),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A PostgreSQL URL: the environment's, or the throw-away server of .ci/postgres.sh (kept up while we run). */
async function postgres(): Promise<{ url: string; stop(): void }> {
  const given = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (given) return { url: given, stop: () => undefined };
  const shell = spawn('bash', ['-c', 'source .ci/postgres.sh >&2 && echo "URL=$TEST_DATABASE_URL" && read'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolvePromise, reject) => {
    let out = '';
    shell.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /URL=(\S+)/.exec(out);
      if (m) resolvePromise(m[1]);
    });
    shell.once('exit', (code) => reject(new Error(`.ci/postgres.sh failed (${code})`)));
  });
  return { url, stop: () => shell.stdin.end() };
}

function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

function csvRows(connection: string, from: number, count: number): string {
  const now = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => `${connection}-d${from + i},Deal ${from + i},0,${now},${now},${100 + i}`).join('\n') + '\n';
}

function configYaml(dir: string, serviceUrl: string, redisUrl: string, ids: string[]): string {
  return [
    'server: { host: 127.0.0.1, port: 0 }',
    `tracker: { base_url: ${JSON.stringify(serviceUrl)}, api_key: ${API_KEY}, project: "1", batch_size: 10, retries: 8, timeout_ms: 15000 }`,
    `admin: { token: ${ADMIN_TOKEN} }`,
    `cluster: { redis: ${JSON.stringify(redisUrl)} }`,
    'log: { level: info, format: json }', // the "listening" line is info
    'connections:',
    ...ids.map((id) => `  - { id: ${id}, connector: spreadsheet, schedule: "* * * * *", settings: { deals: { path: ${JSON.stringify(join(dir, `${id}.csv`))} } } }`),
    '',
  ].join('\n');
}

/** The most requests of any one project within any sliding second. */
function busiestProjectSecond(seen: SeenRequest[]): number {
  const byProject = new Map<string, number[]>();
  for (const r of seen) if (r.project) byProject.set(r.project, [...(byProject.get(r.project) ?? []), r.at]);
  let most = 0;
  for (const times of byProject.values()) {
    times.sort((a, b) => a - b);
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 1000) j++;
      most = Math.max(most, i - j + 1);
    }
  }
  return most;
}

interface CaseResult {
  daemons: number;
  connections: number;
  minutes: number;
  runs_per_minute: number;
  max_requests_per_second: number;
  http_429: number;
  resume_seconds: number | null;
  killed_connection: string | null;
}

async function runCase(n: number, pgUrl: string, redisUrl: string, serviceUrl: string, seen: SeenRequest[]): Promise<CaseResult> {
  const dir = mkdtempSync(join(tmpdir(), `bench-cluster-${n}-`));
  const schema = `bench_cluster_${n}_${Date.now().toString(36)}`;
  const admin = await new DataSource({ type: 'postgres', url: pgUrl, extra: { max: 1 } }).initialize();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const storeUrl = withSearchPath(pgUrl, schema);
  const store = new DataSource({ type: 'postgres', url: storeUrl, extra: { max: 1 } });
  const ids = Array.from({ length: CONNECTIONS }, (_, i) => `s${String(i + 1).padStart(2, '0')}`);
  let written = 0;
  const grow = () => {
    for (const id of ids) appendFileSync(join(dir, `${id}.csv`), csvRows(id, written + 1, DEALS_A_MINUTE));
    written += DEALS_A_MINUTE;
  };
  for (const id of ids) writeFileSync(join(dir, `${id}.csv`), 'id,title,status,created_at,updated_at,price\n');
  grow();
  writeFileSync(join(dir, 'config.yaml'), configYaml(dir, serviceUrl, redisUrl, ids));
  const daemonEnv = (i: number) => ({ DATA_DIR: join(dir, `data-${i}`), DATABASE_URL: storeUrl, PORT: '0' });
  const daemons = Array.from({ length: n }, (_, i) => start(join(DIST, 'src', 'main.js'), ['--config', join(dir, 'config.yaml')], daemonEnv(i)));
  const growing = setInterval(grow, 60_000);
  try {
    for (const d of daemons) await d.waitFor(/tracker-sync listening on/, 120_000);
    await store.initialize();
    const t0 = new Date();
    const seenFrom = seen.length;
    await sleep(MINUTES * 60_000);
    const t1 = new Date();
    const window = seen.slice(seenFrom).filter((r) => r.project);
    // runs that ended within the window (a run started near its end is counted in the next one's, not lost)
    const [done] = (await store.query(`SELECT count(*)::int AS n FROM run WHERE status = 'succeeded' AND finished_at >= $1 AND finished_at < $2`, [t0.toISOString(), t1.toISOString()])) as { n: number }[];
    const runsPerMinute = done.n / ((t1.getTime() - t0.getTime()) / 60_000);

    // SIGKILL a daemon in the middle of a run; the time until that connection's next run starts
    let killed: string | null = null;
    let resume: number | null = null;
    for (const until = Date.now() + 120_000; !killed && Date.now() < until; await sleep(100)) {
      const running = (await store.query(`SELECT connection_id, holder FROM run WHERE status = 'running' AND holder IS NOT NULL`)) as { connection_id: string; holder: string }[];
      for (const row of running) {
        const victim = daemons.findIndex((d) => row.holder.includes(`:${d.child.pid}:`));
        if (victim < 0) continue;
        const killedAt = new Date();
        await daemons[victim].stop('SIGKILL');
        killed = row.connection_id;
        if (n === 1) daemons[victim] = start(join(DIST, 'src', 'main.js'), ['--config', join(dir, 'config.yaml')], daemonEnv(victim));
        for (const until2 = Date.now() + 180_000; resume === null && Date.now() < until2; await sleep(250)) {
          const [next] = (await store.query(`SELECT min(started_at) AS at FROM run WHERE connection_id = $1 AND started_at > $2`, [killed, killedAt.toISOString()])) as { at: string | null }[];
          if (next.at) resume = (Date.parse(next.at) - killedAt.getTime()) / 1000;
        }
        break;
      }
    }
    return {
      daemons: n,
      connections: CONNECTIONS,
      minutes: MINUTES,
      runs_per_minute: Math.round(runsPerMinute * 10) / 10,
      max_requests_per_second: busiestProjectSecond(window),
      http_429: window.filter((r) => r.status === 429).length,
      resume_seconds: resume,
      killed_connection: killed,
    };
  } finally {
    clearInterval(growing);
    await Promise.all(daemons.map((d) => d.stop()));
    if (store.isInitialized) await store.destroy();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const pg = await postgres();
  const redis = await startRedis();
  const work = mkdtempSync(join(tmpdir(), 'bench-cluster-sandbox-'));
  mkdirSync(work, { recursive: true });
  const sandboxPort = 20_000 + Math.floor(Math.random() * 20_000);
  const sandbox = start(join(DIST, 'src', 'sandbox', 'standalone.js'), ['--port', String(sandboxPort), '--db', join(work, 'sandbox.sqlite'), '--budget', 'on', '--seed', 'none', '--api-key', API_KEY, '--latency', '30']);
  const proxy = await countingProxy(`http://127.0.0.1:${sandboxPort}`);
  const results: CaseResult[] = [];
  try {
    await sandbox.waitFor(/project: (\d+)/, 120_000);
    for (const n of DAEMON_COUNTS) {
      // a clean Redis per case: no scheduler, job or budget of the case before
      const { default: Redis } = await import('ioredis');
      const r = new Redis(redis.url);
      await r.flushall();
      await r.quit();
      results.push(await runCase(n, pg.url, redis.url, `${proxy.url}/api/v1`, proxy.seen));
      process.stderr.write(`${JSON.stringify(results[results.length - 1])}\n`);
    }
  } finally {
    await proxy.close();
    await sandbox.stop();
    await redis.stop();
    pg.stop();
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify({ bench: 'cluster', date: new Date().toISOString(), results }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
