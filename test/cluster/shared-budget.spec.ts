/**
 * Three daemon processes on one PostgreSQL store feed one project of a standalone sandbox that enforces the
 * service's budget (10 requests/s, 5,000/h), through a proxy that notes every request. 30 connections are run at
 * once, ten triggered on each daemon: the daemons draw from one budget in the store (rate-limiter-flexible's
 * counters in the rate_limits table; tracker.rate_limit 8/s for the whole installation), so the service answers
 * no 429, its request rate stays within 8/s, and every deal arrives once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { freePort } from '../support/spawn-entry';
import { describePostgres, sql, TestSchema } from '../support/store-drivers';
import { busiestWindow, countingProxy, CountingProxy } from './support/counting-proxy';
import { buildIfStale, Proc, spawnEntry } from './support/processes';

const CONNECTIONS = 30;
const DEALS = 20; // per connection: 2 batches of 10, so 60 add-orders requests in all (7.5 s at 8/s)
const PER_SECOND = 8;
const ADMIN_TOKEN = 'budget-test-admin-token-77d1';
const API_KEY = 'budget-test-sandbox-key-0c4b';
const PROJECT = '1';
const ids = Array.from({ length: CONNECTIONS }, (_, i) => `b${String(i + 1).padStart(2, '0')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function dealsFile(connection: string): string {
  return Array.from({ length: DEALS }, (_, i) => {
    const at = new Date(Date.UTC(2025, 2, 10, 9, 0, i)).toISOString();
    return JSON.stringify({ type: 'deal', id: `${connection}-d${i + 1}`, title: `Deal ${i + 1}`, created_at: at, updated_at: at, status: '0', price: 100 + i });
  }).join('\n') + '\n';
}

function configYaml(dir: string, serviceUrl: string): string {
  return [
    'server: { host: 127.0.0.1, port: 0 }',
    `tracker: { base_url: ${JSON.stringify(serviceUrl)}, api_key: ${API_KEY}, project: "${PROJECT}", batch_size: 10, concurrency: 1, retries: 8, timeout_ms: 15000, rate_limit: { per_second: ${PER_SECOND}, per_hour: 4000 } }`,
    `admin: { token: ${ADMIN_TOKEN} }`,
    'log: { level: info, format: json }',
    'connections:',
    ...ids.map((id) => [`  - id: ${id}`, '    connector: example-custom', `    settings: { path: ${JSON.stringify(join(dir, `${id}.jsonl`))}, page_size: 20 }`].join('\n')),
    '',
  ].join('\n');
}

async function trigger(url: string, id: string): Promise<number> {
  const res = await fetch(`${url}/api/connections/${id}/sync`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(202);
  return ((await res.json()) as { run_id: number }).run_id;
}

describePostgres('cluster: one request budget for three daemons', () => {
  jest.setTimeout(120_000);
  const schema = new TestSchema();
  let dir: string;
  let store: DataSource;
  let sandbox: Proc;
  let proxy: CountingProxy;
  const daemons: { proc: Proc; url: string }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-budget-'));
    const storeUrl = await schema.create();
    for (const id of ids) writeFileSync(join(dir, `${id}.jsonl`), dealsFile(id));
    buildIfStale();
    const port = await freePort();
    proxy = await countingProxy(`http://127.0.0.1:${port}`);
    writeFileSync(join(dir, 'config.yaml'), configYaml(dir, `${proxy.url}/api/v1`));
    sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--budget', 'on', '--seed', 'none', '--api-key', API_KEY, '--latency', '30'], {});
    const procs = [1, 2, 3].map((n) =>
      spawnEntry(`daemon-${n}`, 'main', ['--config', join(dir, 'config.yaml')], { DATA_DIR: join(dir, `data-${n}`), DATABASE_URL: storeUrl, PORT: '0' }),
    );
    expect((await sandbox.waitFor(/project: (\d+)/, 90_000))[1]).toBe(PROJECT);
    for (const proc of procs) daemons.push({ proc, url: (await proc.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1] });
    store = await new DataSource({ type: 'postgres', url: storeUrl, extra: { max: 2 } }).initialize();
  }, 110_000);

  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.proc.stop()));
    await sandbox?.stop();
    await proxy?.close();
    if (store?.isInitialized) await store.destroy();
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends within tracker.rate_limit together: no 429, every deal once', async () => {
    const runIds = await Promise.all(ids.map((id, i) => trigger(daemons[i % 3].url, id)));
    for (const until = Date.now() + 60_000; ; await sleep(250)) {
      const rows = await sql<{ status: string }[]>(store, `SELECT status FROM run WHERE id IN (${runIds.join(',')})`);
      if (rows.length === CONNECTIONS && rows.every((r) => r.status !== 'running')) {
        expect(rows.map((r) => r.status)).toEqual(Array(CONNECTIONS).fill('succeeded'));
        break;
      }
      if (Date.now() > until) throw new Error(`runs did not finish in 60 s: ${JSON.stringify(rows)}`);
    }
    const project = proxy.seen.filter((r) => r.path.startsWith('/api/v1/'));
    expect(project.filter((r) => r.status === 429)).toEqual([]);
    expect(project.length).toBeGreaterThanOrEqual(CONNECTIONS * 2);
    // spaced 125 ms apart across the three daemons; one more in a second at most from the network's jitter
    expect(busiestWindow(project.map((r) => r.at), 1000)).toBeLessThanOrEqual(PER_SECOND + 1);
    const span = (Math.max(...project.map((r) => r.at)) - Math.min(...project.map((r) => r.at))) / 1000;
    expect(project.length / (span + 1)).toBeLessThanOrEqual(PER_SECOND);
    // what the daemons drew is in the store: the hour counted every request of the three
    const [hour] = await sql<{ used: number }[]>(store, `SELECT points AS used FROM rate_limits WHERE key LIKE 'budget:hour:%'`);
    expect(Number(hour.used)).toBeGreaterThanOrEqual(project.length);

    const tracker = new TrackerClient({ baseUrl: `${proxy.url}/api/v1`, apiKey: API_KEY, project: PROJECT, retries: 3, timeoutMs: 15_000 });
    try {
      const orders = await tracker.orders.list({ limit: 1 });
      expect(orders.total).toBe(CONNECTIONS * DEALS);
    } finally {
      await tracker.close();
    }
  });
});
