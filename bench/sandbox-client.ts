import { Agent, request } from 'node:http';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';

/**
 * The sandbox ingest benchmark's client, run in a worker thread (bench/sandbox-ingest.ts starts it):
 * builds the batches, sends them twice (all saved, then all unchanged) and reports each pass.
 */

/** What the client thread is told: where to post, and how much. */
export interface ClientJob { url: string; orders: number; batchSize: number; concurrency: number }

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

/** Builds the batches, then sends them twice; tells the parent when each pass starts and how long it took. */
async function runClient(job: ClientJob, port: MessagePort): Promise<void> {
  const batches: string[] = [];
  for (let start = 0; start < job.orders; start += job.batchSize) {
    const size = Math.min(job.batchSize, job.orders - start);
    batches.push(JSON.stringify(Array.from({ length: size }, (_, offset) => order(start + offset))));
  }
  for (const counter of ['saved', 'skipped_because_not_changed']) {
    port.postMessage({ pass: 'start' });
    const started = process.hrtime.bigint();
    await postAll(job.url, batches, counter, job.concurrency);
    port.postMessage({ pass: 'end', seconds: Number(process.hrtime.bigint() - started) / 1e9 });
  }
  agent.destroy();
}

async function postAll(url: string, batches: string[], counter: string, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length) await postOne(url, batches[next++], counter);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** node:http with keep-alive: a leaner client than fetch (undici's web streams). */
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

runClient(workerData as ClientJob, parentPort as MessagePort).catch((error: unknown) => {
  process.stderr.write(`sandbox ingest client failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
