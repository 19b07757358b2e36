import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ROOT } from '../support/node-entry';
import { Proc, spawnEntry } from '../support/spawn-entry';
import { tempDir } from './daemon-harness';

/**
 * Nothing a request does can kill the daemon: the daemon with its embedded sandbox, at the heap `npm start` gives it
 * (package.json's start script), serves the biggest requests the sandbox allows (every list at its cap, orders with
 * their visits) several at a time, and /health answers throughout. A request above a cap is answered 400.
 */
const START_FLAGS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\s+/).filter((word) => /^--(max-old-space-size|max-semi-space-size|no-allocation-site-pretenuring)/.test(word));
const KEY = 'heap-test-sandbox-key';
const ROWS = 12_000;
const TEXT = 'x'.repeat(300);

describe('the daemon at its heap cap under the biggest allowed list requests', () => {
  const dir = tempDir('heap');
  let daemon: Proc;
  let base: string;
  let sandbox: string;

  const post = async (path: string, body: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${sandbox}/${path}${path.includes('?') ? '&' : '?'}project=1`, {
      method: 'POST', headers: { 'Api-key': KEY, 'Content-Type': 'application/json', 'Use-Http-Code': '1' }, body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    expect(START_FLAGS).toContain('--max-old-space-size=192');
    const config = join(dir.path, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir.path, 'data'),
      sandbox: { seed: 'demo', budget: 'off', api_key: KEY },
      connections: [],
    }));
    daemon = spawnEntry('the daemon', 'main', ['--config', config], { PORT: '0', ADMIN_TOKEN: 'heap-test-admin-token' }, dir.path, START_FLAGS);
    const [, url] = await daemon.waitFor(/listening on (http:\/\/\S+) /, 60_000);
    base = url;
    sandbox = `${url}/sandbox/api/v1`;
    // a project at the caps: 12,000 visits, orders on them with custom fields, clients with orders
    for (let start = 0; start < ROWS; start += 2000) {
      const visits = Array.from({ length: 2000 }, (_, i) => ({ id: String(5_000_000 + start + i) }));
      expect((await post('_sandbox/visits', visits)).status).toBe(200);
    }
    for (let start = 0; start < ROWS; start += 1000) {
      const orders = Array.from({ length: 1000 }, (_, i) => {
        const n = start + i;
        return {
          id: `heap-${n}`, name: `Order ${n}`, date_create: '2026-06-01 10:00:00+0000', status: '1', price: '1000',
          tracker: String(5_000_000 + n), client_id: `client-${n}`,
          fields: { a: TEXT, b: TEXT, c: TEXT, d: TEXT, e: TEXT },
          products: [{ id: 'p', name: 'Product', quantity: 1, price: 1000, category: { level1: 'A', level2: 'B' } }],
        };
      });
      expect((await post('project/add-orders', orders)).body).toMatchObject({ status: 'success', saved: 1000 });
      const clients = Array.from({ length: 1000 }, (_, i) => ({ id: `client-${start + i}`, name: `Client ${start + i}`, phone: `+7900${start + i}` }));
      expect((await post('project/clients/import', clients)).status).toBe(200);
    }
  }, 240_000);

  afterAll(async () => {
    // a daemon that died says why (an out-of-memory abort prints V8's last GC lines)
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (daemon && (daemon.proc.exitCode !== null || daemon.proc.signalCode !== null)) {
      process.stderr.write(`daemon exited ${daemon.proc.exitCode ?? daemon.proc.signalCode}:\n${daemon.output().slice(-3000)}\n`);
    }
    await daemon?.stop();
    dir.remove();
  });

  it('serves every list at its cap, four at a time, while /health answers; an over-large request is a 400', async () => {
    const health: { status: number; ms: number }[] = [];
    let loading = true;
    const poller = (async () => {
      while (loading) {
        const started = Date.now();
        const status = await fetch(`${base}/health`, { signal: AbortSignal.timeout(20_000) }).then((r) => r.status, () => 0);
        health.push({ status, ms: Date.now() - started });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const biggest = [
      () => post('project/integration/order/list', { limit: 10_000, extend: ['visit'] }),
      () => post('project/site/visit/list', { limit: 10_000 }),
      () => post('project/clients', { limit: 10_000 }),
      () => post('project/integration/order/list', { limit: 10_000, offset: 2_000, extend: ['visit'] }),
    ];
    try {
      for (let round = 0; round < 2; round += 1) {
        const answers = await Promise.all(biggest.map((request) => request()));
        for (const answer of answers) expect(answer.status).toBe(200);
        expect(answers[0].body.data).toHaveLength(10_000);
        expect(answers[0].body.data[0].visit).toMatchObject({ id: expect.any(String) });
        expect(answers[1].body.data).toHaveLength(10_000);
        expect(answers[2].body.clients).toHaveLength(10_000);
      }
      const refused = await post('project/integration/order/list', { limit: 400_000, extend: ['visit'] });
      expect(refused).toMatchObject({ status: 400, body: { error: 'request_data_validation_error', details: { field: 'limit', max: 10_000 } } });
    } finally {
      loading = false;
      await poller;
    }
    expect(daemon.proc.exitCode).toBeNull();
    expect(health.length).toBeGreaterThan(5);
    expect(health.filter((h) => h.status !== 200)).toEqual([]);
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer heap-test-admin-token' } }).then((r) => r.text());
    const heapUsed = Number(/^tracker_sync_nodejs_heap_size_used_bytes (\S+)/m.exec(metrics)?.[1] ?? NaN);
    // printed for the record: the slowest /health answer under load, and the heap after it
    process.stdout.write(`heap-cap: ${health.length} /health answers, slowest ${Math.max(...health.map((h) => h.ms))} ms; heap used ${(heapUsed / 2 ** 20).toFixed(0)} MB\n`);
    expect(heapUsed).toBeLessThan(192 * 2 ** 20);
  }, 240_000);
});
