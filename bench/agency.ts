/**
 * An agency on one daemon (issue 41): N projects × 3 spreadsheet connections of 1,000 deals each, on the embedded
 * sandbox hosting the N projects (`sandbox.projects`), every connection `run_on_start` (and on a quarter-hour
 * schedule). The daemon runs as `npm start` runs it (its own process, the same node flags). Prints one JSON
 * document: the daemon's peak memory (VmHWM of /proc/<pid>/status), the time from its start to every
 * connection's first run done (polling GET /api/connections), how many runs went at once (the scheduler's
 * spreading, `scheduler.concurrency`), and the answer times (median, p95 of 20) of GET /api/projects, of the
 * status page (GET /) and of GET /api/connections, which the page reads.
 *
 * Budgets are on by default, as with the real service: the sandbox enforces the service's 10/s and 5,000/h per
 * project, the daemon keeps to `tracker.rate_limit` (8/s, 4,000/h); `--budget off` switches both off.
 * Usage: npm run bench:agency [-- --projects 100 --connections 3 --deals 1000 --budget on|off --concurrency 16]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeClients, writeDeals } from './generate-data';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const PROJECTS = Number(option('--projects', '100'));
const PER_PROJECT = Number(option('--connections', '3'));
const DEALS = Number(option('--deals', '1000'));
const BUDGET = option('--budget', 'on') === 'off' ? 'off' : 'on';
const CONCURRENCY = option('--concurrency', '');
const TOKEN = 'bench-agency-admin-token';
/** as `npm start` runs the daemon (package.json) */
const NODE_FLAGS = ['--max-old-space-size=192', '--no-allocation-site-pretenuring'];
const MAIN = join(__dirname, '..', 'src', 'main.js');
const SAMPLES = 20;
const FIRST_RUNS_TIMEOUT_MS = 30 * 60_000;

interface ConnectionAnswer {
  id: string;
  state: string;
  last_run: { status: string; finished_at: string | null } | null;
}

/** The name of project n under projects: (project 1 is the tracker: section's). */
const projectName = (n: number) => `client-${String(n).padStart(3, '0')}`;

function writeWork(work: string, port: number): string {
  const sheets = join(work, 'sheets');
  mkdirSync(sheets, { recursive: true });
  writeClients(join(sheets, 'clients.csv'), Math.max(1, Math.floor(DEALS / 5)));
  const lines = [
    `data_dir: ${join(work, 'data')}`,
    `server: { host: 127.0.0.1, port: ${port} }`,
    'log: { level: warn, format: json }',
    `tracker: { rate_limit: ${BUDGET === 'off' ? 'off' : '{ per_second: 8, per_hour: 4000 }'} }`,
    `sandbox: { seed: none, budget: "${BUDGET}", projects: ${PROJECTS} }`,
    ...(CONCURRENCY ? [`scheduler: { concurrency: ${Number(CONCURRENCY)} }`] : []),
    'projects:',
  ];
  for (let n = 2; n <= PROJECTS; n++) lines.push(`  ${projectName(n)}: { project: "${n}" }`);
  if (PROJECTS < 2) lines.push('  {}');
  lines.push('connections:');
  for (let n = 1; n <= PROJECTS; n++) {
    for (let c = 1; c <= PER_PROJECT; c++) {
      const id = `p${n}-sheet${c}`;
      const deals = join(sheets, `${id}.csv`);
      writeDeals(deals, DEALS, 0, `${id}-d`);
      lines.push(
        `  - id: ${id}`,
        ...(n > 1 ? [`    project: ${projectName(n)}`] : []),
        '    connector: spreadsheet',
        '    schedule: "*/15 * * * *"',
        '    run_on_start: true',
        `    settings: { deals: { path: "${deals}", timezone: UTC }, clients: { path: "${join(sheets, 'clients.csv')}" } }`,
      );
    }
  }
  const file = join(work, 'tracker-sync.yaml');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** kB figures of /proc/<pid>/status in MB (Linux). */
function memory(pid: number): { peak_mb: number; rss_mb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { peak_mb: round(kb('VmHWM') / 1024), rss_mb: round(kb('VmRSS') / 1024) };
  } catch {
    return null;
  }
}

async function get(url: string): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, body };
}

/** Median and p95 of SAMPLES answers; null when the route is not there (404). */
async function answerTimes(url: string): Promise<{ median_ms: number; p95_ms: number; bytes: number } | null> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const answer = await get(url);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new Error(`GET ${url}: HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
    times.push(answer.ms);
    bytes = answer.body.length;
  }
  times.sort((a, b) => a - b);
  return { median_ms: round(times[Math.floor(times.length / 2)]), p95_ms: round(times[Math.ceil(times.length * 0.95) - 1]), bytes };
}

const round = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-agency-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  process.stderr.write(`writing ${PROJECTS * PER_PROJECT} CSV files of ${DEALS} deals into ${work} ...\n`);
  const config = writeWork(work, port);

  const startedAt = performance.now();
  const daemon = spawn(process.execPath, [...NODE_FLAGS, MAIN, '--config', config], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ADMIN_TOKEN: TOKEN, LOG_FORMAT: 'json' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  daemon.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let exited: number | null = null;
  const gone = new Promise<void>((resolve) => daemon.on('exit', (code) => ((exited = code ?? 1), resolve())));

  try {
    let listeningMs: number | null = null;
    let doneMs: number | null = null;
    let mostRunning = 0;
    let last: ConnectionAnswer[] = [];
    process.stderr.write(`daemon pid ${daemon.pid} on ${base}: waiting for every connection's first run ...\n`);
    while (doneMs === null) {
      if (exited !== null) throw new Error(`the daemon exited (${exited}): ${stderr}`);
      if (performance.now() - startedAt > FIRST_RUNS_TIMEOUT_MS) throw new Error('the first runs did not all end within 30 minutes');
      await sleep(250);
      const answer = await get(`${base}/api/connections`).catch(() => null);
      if (!answer || answer.status !== 200) continue;
      listeningMs ??= performance.now() - startedAt;
      last = (JSON.parse(answer.body) as { connections: ConnectionAnswer[] }).connections;
      mostRunning = Math.max(mostRunning, last.filter((c) => c.last_run?.status === 'running').length);
      if (last.length === PROJECTS * PER_PROJECT && last.every((c) => c.last_run?.finished_at)) doneMs = performance.now() - startedAt;
    }
    const atDone = memory(daemon.pid!);
    const statuses: Record<string, number> = {};
    for (const connection of last) statuses[connection.last_run!.status] = (statuses[connection.last_run!.status] ?? 0) + 1;

    const projects = await answerTimes(`${base}/api/projects`);
    const statusPage = await answerTimes(`${base}/`);
    const connections = await answerTimes(`${base}/api/connections`);
    const end = memory(daemon.pid!);
    console.log(JSON.stringify({
      projects: PROJECTS,
      connections: PROJECTS * PER_PROJECT,
      deals_per_connection: DEALS,
      budget: BUDGET === 'on' ? 'on: sandbox 10/s and 5,000/h per project, tracker.rate_limit 8/s, 4,000/h' : 'off',
      scheduler_concurrency: CONCURRENCY ? Number(CONCURRENCY) : 'default',
      daemon_peak_rss_mb: end?.peak_mb ?? null,
      daemon_rss_at_first_runs_done_mb: atDone?.rss_mb ?? null,
      start_to_listening_s: listeningMs === null ? null : round(listeningMs / 1000),
      start_to_every_first_run_done_s: round(doneMs / 1000),
      most_runs_seen_running_at_once: mostRunning,
      first_runs: statuses,
      get_api_projects: projects,
      ...(projects === null ? { get_api_projects_note: 'GET /api/projects answered 404: this build has no such route (null)' } : {}),
      get_status_page: statusPage,
      get_api_connections: connections,
    }, null, 2));
  } finally {
    if (exited === null) {
      daemon.kill('SIGTERM');
      await Promise.race([gone, sleep(15_000)]);
      if (exited === null) daemon.kill('SIGKILL');
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
