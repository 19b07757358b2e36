/**
 * The peer: the glue script a user would otherwise write. It streams the CSV with the same parser,
 * builds add-orders batches of the same size and POSTs them one after another with keep-alive.
 * No checks, no fingerprints, no checkpoints: nothing survives a failure.
 *   node dist/bench/glue.js --csv deals.csv --url http://127.0.0.1:PORT --batch 500
 */
import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { Agent, request } from 'node:http';

const args = process.argv.slice(2);
const arg = (name: string) => args[args.indexOf(name) + 1];
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL('/project/add-orders?project=1', arg('--url'));
const batchSize = Number(arg('--batch') ?? 500);

function post(body: unknown[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Api-key': 'bench', 'Content-Length': Buffer.byteLength(payload) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function main() {
  const parser = createReadStream(arg('--csv')).pipe(parse({ columns: true }));
  let batch: unknown[] = [];
  let sent = 0;
  for await (const row of parser as AsyncIterable<Record<string, string>>) {
    const products = [];
    for (let p = 1; p <= 3; p++) {
      if (!row[`product_${p}_id`]) continue;
      const [level1, level2, level3] = row[`product_${p}_category`].split(' > ');
      products.push({ id: row[`product_${p}_id`], name: row[`product_${p}_name`], price: Number(row[`product_${p}_price`]), quantity: Number(row[`product_${p}_quantity`]), category: { level1, level2, level3 } });
    }
    batch.push({ id: row.id, name: row.title, date_create: `${row.created_at}+0000`, status: row.status, tracker: row.visit_id, price: row.price, cost: row.cost, client_id: row.client_id, products });
    if (batch.length === batchSize) {
      await post(batch);
      sent += batch.length;
      batch = [];
    }
  }
  if (batch.length) await post(batch);
  sent += batch.length;
  console.log(JSON.stringify({ sent }));
  agent.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
