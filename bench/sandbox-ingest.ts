import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createSandboxApp } from '../src/sandbox/sandbox-app';
import { SandboxInfo } from '../src/sandbox/sandbox-info';
import type { ClientJob } from './sandbox-client';

export interface SandboxIngestResult {
  orders: number;
  batchSize: number;
  /** Requests in flight at once (1 = each sent when the previous one is answered). */
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

/**
 * Posts `orders` orders in batches of `batchSize` to a fresh file-backed sandbox over loopback
 * HTTP (budget off), `concurrency` requests at a time, and measures orders per second end to end.
 * The client runs in a worker thread: on the sandbox's event loop it took ~10 % of the thread it
 * measures (building, writing and reading requests), as a real client in its own process does not.
 */
export async function runSandboxIngestBench(orders = 100_000, batchSize = 1000, concurrency = 1): Promise<SandboxIngestResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-ingest-'));
  const app = await createSandboxApp({ db: join(dir, 'sandbox.sqlite'), seed: 'none', apiKey: 'bench-key', budget: 'off' });
  await app.listen(0, '127.0.0.1');
  try {
    const url = `${await app.getUrl()}/api/v1/project/add-orders?project=${app.get(SandboxInfo).getSandboxInfo().projectId}`;
    const client = new Worker(join(__dirname, 'sandbox-client.js'), { workerData: { url, orders, batchSize, concurrency } satisfies ClientJob });
    const passes: { seconds: number; cpuSeconds: number }[] = [];
    await new Promise<void>((resolve, reject) => {
      let cpuStarted = process.cpuUsage();
      client.on('message', (message: { pass: 'start' } | { pass: 'end'; seconds: number }) => {
        if (message.pass === 'start') {
          cpuStarted = process.cpuUsage();
          return;
        }
        const cpu = process.cpuUsage(cpuStarted);
        passes.push({ seconds: message.seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
        if (passes.length === 2) resolve();
      });
      client.on('error', reject);
      client.on('exit', (code) => reject(new Error(`the client thread ended (exit code ${code}) before both passes`)));
    });
    await client.terminate();
    const [firstPass, secondPass] = passes;
    return {
      orders, batchSize, concurrency, seconds: firstPass.seconds,
      ordersPerSecond: Math.round(orders / firstPass.seconds),
      unchangedOrdersPerSecond: Math.round(orders / secondPass.seconds),
      ordersPerCpuSecond: Math.round(orders / firstPass.cpuSeconds),
    };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
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
