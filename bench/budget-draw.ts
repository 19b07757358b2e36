/**
 * What drawing from the shared request budget costs: requests per second one process sends to a loopback sink
 * (bench/sink.ts, its own process, answering at once) with `rate_limit: off`, against the same with the budget
 * kept in the store and set far above what the process can send (so only its cost shows): on SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set.
 * Usage: npm run bench:budget [-- --seconds 5 --in-flight 32]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budgetScope, SharedRequestBudget } from '../src/budget/shared-request-budget';
import { createStoreDataSource, StoreOptions } from '../src/store/store-data-source';
import { BudgetLimiters } from '../src/budget/budget-limiters';
import { budgetStoreOf } from '../src/store/budget-store';
import { TrackerClient } from '../src/tracker/tracker-client';
import { startSink } from './processes';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = option('--seconds', 5);
const IN_FLIGHT = option('--in-flight', 32);
const HIGH = { per_second: 1_000_000, per_hour: 1_000_000_000 };

interface Result {
  label: string;
  perSecond: number;
}

/** Requests answered per second by IN_FLIGHT loops over SECONDS (after one second of warm-up). */
async function measure(label: string, client: TrackerClient): Promise<Result> {
  let counting = false;
  let done = 0;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      await client.managers.list();
      if (counting) done++;
    }
  };
  const loops = Array.from({ length: IN_FLIGHT }, loop);
  await new Promise((r) => setTimeout(r, 1000));
  counting = true;
  const started = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  counting = false;
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  stop = true;
  await Promise.all(loops);
  return { label, perSecond: done / elapsed };
}

async function withStore(label: string, url: string, options: StoreOptions): Promise<Result> {
  const dataSource = await createStoreDataSource(options);
  const limiters = await BudgetLimiters.store(budgetStoreOf(dataSource));
  const budget = new SharedRequestBudget(limiters, budgetScope(url, `bench-${Date.now()}`), HIGH);
  const client = new TrackerClient({ baseUrl: url, apiKey: 'bench', project: '1', rateLimit: HIGH, budget });
  try {
    return await measure(label, client);
  } finally {
    await client.close();
    await limiters.close();
    await dataSource.destroy();
  }
}

async function main(): Promise<void> {
  const sink = await startSink(join(__dirname, 'sink.js'), 0);
  const dir = mkdtempSync(join(tmpdir(), 'bench-budget-'));
  const results: Result[] = [];
  try {
    const off = new TrackerClient({ baseUrl: sink.url, apiKey: 'bench', project: '1', rateLimit: 'off' });
    results.push(await measure('rate_limit: off', off));
    await off.close();
    results.push(await withStore('shared budget, SQLite store', sink.url, { dataDir: dir }));
    const pg = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
    if (pg) results.push(await withStore('shared budget, PostgreSQL store', sink.url, { dataDir: dir, url: pg }));
  } finally {
    sink.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const base = results[0].perSecond;
  console.log(`\n${IN_FLIGHT} requests in flight, ${SECONDS} s each, sink answering at once\n`);
  console.log('| Case | requests/s | vs off |\n|---|---:|---:|');
  for (const r of results) console.log(`| ${r.label} | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${(r.perSecond / base).toFixed(2)} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
