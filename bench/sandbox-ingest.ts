import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxApp } from '../src/sandbox/sandbox-app';
import { SandboxInfo } from '../src/sandbox/sandbox-info';

export interface SandboxIngestResult {
  orders: number;
  batchSize: number;
  /** Requests in flight at once (1 = one after the other, as a single sync run sends them). */
  concurrency: number;
  seconds: number;
  ordersPerSecond: number;
  /** Second pass with the same orders: all answered skipped_because_not_changed. */
  unchangedOrdersPerSecond: number;
  /**
   * Orders per second of CPU time used by the process (all threads) in the first pass: the rate
   * the sandbox reaches when it has a core to itself, whatever else the machine runs meanwhile.
   */
  ordersPerCpuSecond: number;
}

/** A realistic order: custom fields, two products with categories, a short history. */
function order(index: number): Record<string, unknown> {
  return {
    id: `bench-${index}`, name: `Deal ${index}`, date_create: 1_700_000_000 + index, status: index % 3 === 0 ? '1' : '0',
    price: String(1000 + (index % 500)), cost: String(index % 300), client_id: `client-${index % 5000}`,
    fields: { manager: `m${index % 20}`, pipeline: 'main', comment: 'benchmark order' },
    products: [
      { id: `p${index % 100}`, name: 'Widget', quantity: 1 + (index % 3), price: 500, category: { level1: 'Tools', level2: 'Widgets' } },
      { id: 'svc', name: 'Delivery', quantity: 1, price: 300 },
    ],
    history: [{ date: '2024-01-01 10:00:00', status: '0', price: 1000, cost: null }],
  };
}

/**
 * Posts `orders` orders in batches of `batchSize` to a fresh file-backed sandbox over loopback
 * HTTP (budget off), `concurrency` requests at a time, and measures orders per second end to end.
 */
export async function runSandboxIngestBench(orders = 100_000, batchSize = 1000, concurrency = 1): Promise<SandboxIngestResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-ingest-'));
  const app = await createSandboxApp({ db: join(dir, 'sandbox.sqlite'), seed: 'none', apiKey: 'bench-key', budget: 'off' });
  await app.listen(0, '127.0.0.1');
  try {
    const url = `${await app.getUrl()}/api/v1/project/add-orders?project=${app.get(SandboxInfo).getSandboxInfo().projectId}`;
    const batches: string[] = [];
    for (let start = 0; start < orders; start += batchSize) {
      const size = Math.min(batchSize, orders - start);
      batches.push(JSON.stringify(Array.from({ length: size }, (_, offset) => order(start + offset))));
    }
    const firstPass = await postAll(url, batches, 'saved', concurrency);
    const secondPass = await postAll(url, batches, 'skipped_because_not_changed', concurrency);
    return {
      orders, batchSize, concurrency, seconds: firstPass.seconds,
      ordersPerSecond: Math.round(orders / firstPass.seconds),
      unchangedOrdersPerSecond: Math.round(orders / secondPass.seconds),
      ordersPerCpuSecond: Math.round(orders / firstPass.cpuSeconds),
    };
  } finally {
    agent.destroy();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postAll(url: string, batches: string[], counter: string, concurrency: number):
Promise<{ seconds: number; cpuSeconds: number }> {
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length) await postOne(url, batches[next++], counter);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpuStarted);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/**
 * A lean client in the same process: node:http with keep-alive costs the process less CPU than fetch
 * (undici's web streams), so the figure is the sandbox's, not its client's.
 */
const agent = new Agent({ keepAlive: true });

/** One batch; every order must be counted in `counter` (saved on the first pass, unchanged on the second). */
function postOne(url: string, body: string, counter: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { 'Api-key': 'bench-key', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        if (answer.status === 'success' && answer[counter] === answer.processed) resolve();
        else reject(new Error(`add-orders answered unexpectedly: ${JSON.stringify(answer).slice(0, 300)}`));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

if (require.main === module) {
  const orders = Number(process.argv[2] ?? 100_000);
  const batchSize = Number(process.argv[3] ?? 1000);
  const concurrency = Number(process.argv[4] ?? 1);
  runSandboxIngestBench(orders, batchSize, concurrency).then((result) => {
    process.stdout.write(`sandbox add-orders ingest: ${result.ordersPerSecond} orders/s `
      + `(${result.orders} orders, batches of ${result.batchSize}, ${result.concurrency} in flight, ${result.seconds.toFixed(2)} s); `
      + `unchanged re-send: ${result.unchangedOrdersPerSecond} orders/s; `
      + `per CPU second: ${result.ordersPerCpuSecond} orders (load average ${loadavg()[0].toFixed(1)})\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }).catch((error: unknown) => {
    process.stderr.write(`sandbox ingest bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
