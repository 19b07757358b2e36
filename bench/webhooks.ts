/**
 * `npm run bench:webhooks -- [--changes 50] [--debounce 3s]`
 * The time from a CRM's webhook call to the changed deal in the service: the daemon (createDaemonApp, as
 * `npm start` runs it, with its embedded sandbox as the service) syncs a small amoCRM; a deal is changed, the
 * amoCRM-shaped call is POSTed to /hooks/bench/<secret>, and the service's order list is read until the order
 * shows the change. One change at a time; prints p50 and p95 (and min, max) over the changes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDaemonApp } from '../src/daemon';
import { TrackerClient } from '../src/tracker/tracker-client';
import { startBenchCrm } from './webhook-crm';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const CHANGES = Number(option('--changes', '50'));
const DEBOUNCE = option('--debounce', '3s');
const SECRET = 'bench-webhook-secret-5b1e';
/** the demo seed's visits: 1000001… */
const FIRST_VISIT = 1_000_001;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const crm = await startBenchCrm(CHANGES, FIRST_VISIT);
  const config = join(dir, 'config.yaml');
  writeFileSync(config, [
    'server: { port: 0 }',
    `data_dir: ${join(dir, 'data')}`,
    'log: { level: warn, format: json }',
    // the benchmark's own reads of the order list must not take the project's budget from the daemon
    'sandbox: { seed: demo, budget: "off" }',
    'connections:',
    '  - id: bench',
    '    connector: generic-crm',
    // the bench CRM has no events API: stage history is left out (bench:enrichment counts what it costs)
    `    settings: { preset: amocrm, base_url: "${crm.url}", token: ${crm.token}, rate_limit: { requests: 7, per_seconds: 1 }, history: false }`,
    `    webhook: { secret: ${SECRET}, debounce: ${DEBOUNCE} }`,
  ].join('\n'));
  const daemon = await createDaemonApp({ argv: ['node', 'main.js', '--config', config], env: { PORT: '0', ADMIN_TOKEN: 'bench-admin-token', PATH: process.env.PATH } });
  await daemon.start();
  const tracker = new TrackerClient({ ...daemon.boot.tracker, rateLimit: 'off', retries: 3 });
  const visitOf = async (id: number) => {
    const page = await tracker.orders.list({ limit: 1, offset: 0, filters: [['id', '=', String(id)]], extend: ['visit'] } as never);
    return page.data[0]?.visit_id ?? null;
  };
  try {
    // the first run (every lead), before any change is timed
    const started = await fetch(`${daemon.url}/api/connections/bench/sync`, { method: 'POST', headers: { authorization: 'Bearer bench-admin-token' } });
    if (started.status !== 202) throw new Error(`the first sync did not start: ${started.status}`);
    await until(async () => (await visitOf(crm.leadIds()[CHANGES - 1])) !== null, 120_000);

    const times: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const id = crm.leadIds()[i];
      const visit = String(FIRST_VISIT + 1000 + i);
      crm.change(id, visit);
      const sentAt = performance.now();
      const answer = await fetch(`${daemon.url}/hooks/bench/${SECRET}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'leads[update][0][id]': String(id), 'account[subdomain]': 'bench', 'account[id]': '1' }).toString(),
      });
      if (answer.status !== 202) throw new Error(`the webhook was answered ${answer.status}`);
      await until(async () => (await visitOf(id)) === visit, 60_000, 25);
      times.push(performance.now() - sentAt);
      process.stderr.write(`\r${i + 1}/${CHANGES}`);
    }
    process.stderr.write('\n');
    const sorted = [...times].sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`webhook → deal in the service (amoCRM preset, debounce ${DEBOUNCE}, embedded sandbox), ${CHANGES} changes:`);
    console.log(`  p50 ${s(pct(50))}   p95 ${s(pct(95))}   min ${s(sorted[0])}   max ${s(sorted[sorted.length - 1])}`);
    console.log(`  (the debounce is ${DEBOUNCE} of it; polling at the default */15 * * * * waits 7.5 min on average)`);
  } finally {
    await tracker.close();
    await daemon.stop();
    await crm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function until(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
