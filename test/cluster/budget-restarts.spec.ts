/**
 * A daemon restarted several times within the hour (a crash loop) does not get a fresh hourly allowance each
 * time: the hour's count is in its store (SQLite here) and every incarnation draws from it. tracker.rate_limit
 * per_hour 40; four incarnations each start a run that wants 30 requests; the service, behind a counting proxy,
 * sees at most 40 requests in all.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/spawn-entry';
import { countingProxy, CountingProxy } from './support/counting-proxy';
import { buildIfStale, Proc, spawnEntry } from './support/processes';

const PER_HOUR = 40;
const INCARNATIONS = 4;
const DEALS = 300; // batches of 10: 30 requests a run
const ADMIN_TOKEN = 'restart-test-admin-token-4e21';
const API_KEY = 'restart-test-sandbox-key-93af';
const ids = Array.from({ length: INCARNATIONS }, (_, i) => `r${i + 1}`);
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
    `tracker: { base_url: ${JSON.stringify(serviceUrl)}, api_key: ${API_KEY}, project: "1", batch_size: 10, concurrency: 1, retries: 2, timeout_ms: 15000, rate_limit: { per_second: 9, per_hour: ${PER_HOUR} } }`,
    `admin: { token: ${ADMIN_TOKEN} }`,
    'log: { level: info, format: json }',
    'connections:',
    ...ids.map((id) => [`  - id: ${id}`, '    connector: example-custom', `    settings: { path: ${JSON.stringify(join(dir, `${id}.jsonl`))}, page_size: 50 }`].join('\n')),
    '',
  ].join('\n');
}

describe('request budget across restarts', () => {
  jest.setTimeout(120_000);
  let dir: string;
  let sandbox: Proc;
  let proxy: CountingProxy;
  let daemon: Proc | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-restarts-'));
    for (const id of ids) writeFileSync(join(dir, `${id}.jsonl`), dealsFile(id));
    buildIfStale();
    const port = await freePort();
    proxy = await countingProxy(`http://127.0.0.1:${port}`);
    writeFileSync(join(dir, 'config.yaml'), configYaml(dir, `${proxy.url}/api/v1`));
    sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(dir, 'sandbox.sqlite'), '--seed', 'none', '--api-key', API_KEY], {});
    await sandbox.waitFor(/project: (\d+)/, 90_000);
  }, 100_000);

  afterAll(async () => {
    await daemon?.stop();
    await sandbox?.stop();
    await proxy?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`sends at most per_hour (${PER_HOUR}) in the hour, however often the daemon restarts`, async () => {
    const sent: number[] = [];
    for (const id of ids) {
      daemon = spawnEntry(`daemon-${id}`, 'main', ['--config', join(dir, 'config.yaml')], { DATA_DIR: join(dir, 'data'), PORT: '0' });
      const url = (await daemon.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1];
      const before = proxy.seen.length;
      const res = await fetch(`${url}/api/connections/${id}/sync`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(res.status).toBe(202);
      // until the run is done or its requests stopped coming (waiting for the hour): 1.5 s without a request
      let last = Date.now();
      for (let seen = proxy.seen.length; Date.now() - last < 1_500; await sleep(100)) {
        if (proxy.seen.length !== seen) [seen, last] = [proxy.seen.length, Date.now()];
      }
      sent.push(proxy.seen.length - before);
      const stopped = Date.now();
      await daemon.stop(); // a restart: the allowance must not come back
      // a run waiting for the budget does not hold the shutdown (the daemon stops itself, not by SIGKILL)
      expect(Date.now() - stopped).toBeLessThan(5_000);
      expect((await daemon.exited).signal).toBeNull();
    }
    const total = proxy.seen.filter((r) => r.path.startsWith('/api/v1/')).length;
    expect(total).toBeLessThanOrEqual(PER_HOUR);
    expect(total).toBeGreaterThanOrEqual(PER_HOUR - 1); // the hour was spent, not sent by nobody
    expect(sent[0]).toBe(30); // the first incarnation had room for its whole run
    expect(sent.slice(2)).toEqual([0, 0]);
    expect(proxy.seen.filter((r) => r.status === 429)).toEqual([]);
  });
});
