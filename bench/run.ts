/**
 * `npm run bench -- [--deals N] [--batch-size 500] [--concurrency 8]`
 * Engine vs the glue script on the same generated data and the same sink, each case a separate process
 * measured by bench/measure (wall, CPU, peak RSS). Prints a table and writes bench/results/latest.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeClients, writeDeals } from './generate-data';
import { engineEnv, engineNodeFlags, runMeasured, startSink, Measured } from './processes';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const DEALS = option('--deals', 1_000_000);
const BATCH = option('--batch-size', 500);
const CONCURRENCY = option('--concurrency', 8);
const DIST = resolve(__dirname, '..'); // dist/ (this file runs as dist/bench/run.js)
const ROOT = resolve(DIST, '..');
const WORK = join(ROOT, 'bench', 'work');
const RESULTS = join(ROOT, 'bench', 'results');
const CLI = join(DIST, 'src', 'cli.js');
/** The engine runs as `npm start` and `npm run cli` run it (package.json's flags). */
const ENGINE_NODE_FLAGS = engineNodeFlags();
const ENGINE_ENV = engineEnv();
interface Case extends Measured {
  name: string;
  orders: number;
  /** the time the work took: the engine's recorded run duration (the daemon is resident), the glue's process time */
  seconds: number;
}

function engineConfig(dataDir: string, sinkUrl: string): string {
  const file = join(WORK, `${dataDir}.yaml`);
  writeFileSync(
    file,
    [
      `data_dir: ${join(WORK, dataDir)}`,
      'log: { level: warn }',
      `tracker: { base_url: "${sinkUrl}", api_key: bench, project: "1", batch_size: ${BATCH}, concurrency: ${CONCURRENCY}, rate_limit: off }`,
      'connections:',
      '  - id: bench',
      '    connector: spreadsheet',
      '    settings:',
      `      deals: { path: "${join(WORK, 'deals.csv')}", timezone: UTC }`,
      `      clients: { path: "${join(WORK, 'clients.csv')}" }`,
      '',
    ].join('\n'),
  );
  return file;
}

/**
 * Before each case: the disk's write-back of the previous case (a million-row store, a regenerated CSV) is
 * finished, so that it does not slow the next case down, and the machine has a second to go quiet.
 */
async function settle(): Promise<void> {
  execFileSync('sync');
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

async function engineSync(name: string, config: string, extra: string[], orders: number): Promise<Case> {
  await settle();
  const measured = await runMeasured(CLI, ['sync', 'bench', '--config', config, ...extra], name, ENGINE_NODE_FLAGS, ENGINE_ENV);
  const run = /run \d+ (\w+) in ([\d.]+) s/.exec(measured.stdout);
  if (!run || run[1] !== 'succeeded') throw new Error(`${name}: the sync did not succeed:\n${measured.stdout.slice(-2000)}`);
  return { name, orders, seconds: Number(run[2]), ...measured };
}

async function glue(name: string, sinkUrl: string): Promise<Case> {
  await settle();
  const measured = await runMeasured(join(DIST, 'bench', 'glue.js'), ['--csv', join(WORK, 'deals.csv'), '--url', sinkUrl, '--batch', String(BATCH)], name);
  return { name, orders: DEALS, seconds: measured.wall_ms / 1000, ...measured };
}

/**
 * How fast this machine parses the benchmark's own deals file (a bare csv-parse loop): printed beside the
 * results, since the 50 ms ratio and the sandbox's absolute rate move with the machine's speed.
 */
async function csvParseRate(): Promise<number | null> {
  await settle();
  const out = await runMeasured(join(DIST, 'bench', 'read-csv.js'), ['--bare', '--file', join(WORK, 'deals.csv')], 'bare csv-parse loop');
  const match = /= (\d+) rows\/s/.exec(out.stdout);
  return match ? Number(match[1]) : null;
}

async function sandboxIngest(): Promise<number | null> {
  await settle();
  try {
    const out = await runMeasured(join(DIST, 'bench', 'sandbox-ingest.js'), [String(Math.min(DEALS, 200_000)), String(BATCH)], 'sandbox ingest');
    const match = /"ordersPerSecond":\s*([\d.]+)/.exec(out.stdout);
    return match ? Number(match[1]) : null;
  } catch (error) {
    console.error(`sandbox ingest failed: ${(error as Error).message}`);
    return null;
  }
}

/** How long the same full sync takes against the real service under a budget, by batch size. */
function realServiceEstimate(deals: number, perSecond = 8, perHour = 4000) {
  return [100, 250, 500, 1000, 2000].map((batch) => {
    const requests = Math.ceil(deals / batch);
    const hours = Math.floor((requests - 1) / perHour);
    const seconds = hours * 3600 + (requests - hours * perHour) / perSecond;
    return { batch_size: batch, requests, seconds: Math.round(seconds), orders_per_s: Math.round(deals / seconds) };
  });
}

const rate = (c: Case) => c.orders / c.seconds;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  mkdirSync(RESULTS, { recursive: true });
  // Case 6 first: it is held to an absolute rate, not compared with a peer, so it runs before the other cases
  // fill the page cache with a 200 MB CSV and million-row stores whose write-back competes with its writes.
  const ingest = await sandboxIngest();
  console.log(`generating ${fmt(DEALS)} deals (3 products each) and ${fmt(DEALS / 5)} clients ...`);
  writeDeals(join(WORK, 'deals.csv'), DEALS);
  writeClients(join(WORK, 'clients.csv'), Math.floor(DEALS / 5));

  const csvParse = await csvParseRate();
  const sink = await startSink(join(DIST, 'bench', 'sink.js'), 0);
  const slowSink = await startSink(join(DIST, 'bench', 'sink.js'), 50);
  const cases: Case[] = [];
  /** the same loop again after cases 1 and 2: did the machine's speed hold while full_vs_glue was measured? */
  let csvParseAfter: number | null = null;
  try {
    const fast = engineConfig('engine-fast', sink.url);
    cases.push(await glue('1 glue script, full', sink.url));
    cases.push(await engineSync('2 engine, full sync', fast, ['--full'], DEALS));
    csvParseAfter = await csvParseRate();
    cases.push(await engineSync('3 engine, no-change resync', fast, [], DEALS));
    writeDeals(join(WORK, 'deals.csv'), DEALS, 100);
    cases.push(await engineSync('4 engine, 1 % changed', fast, [], DEALS));
    writeDeals(join(WORK, 'deals.csv'), DEALS);
    cases.push(await glue('5a glue script, 50 ms sink', slowSink.url));
    cases.push(await engineSync('5b engine, 50 ms sink', engineConfig('engine-slow', slowSink.url), ['--full'], DEALS));
  } finally {
    sink.stop();
    slowSink.stop();
  }

  const [glueFull, full, nochange, changed, glueSlow, slow] = cases;
  const results = {
    deals: DEALS,
    batch_size: BATCH,
    concurrency: CONCURRENCY,
    full_vs_glue: round(rate(full) / rate(glueFull)),
    nochange_speedup: round(glueFull.seconds / nochange.seconds),
    changed1_speedup: round(glueFull.seconds / changed.seconds),
    latency_vs_glue: round(rate(slow) / rate(glueSlow)),
    peak_rss_mb: round(Math.max(full.peak_rss_mb, nochange.peak_rss_mb, changed.peak_rss_mb, slow.peak_rss_mb)),
    sandbox_ingest_per_s: ingest === null ? null : Math.round(ingest),
    csv_parse_rows_per_s: csvParse,
    csv_parse_rows_per_s_after_full: csvParseAfter,
    machine_speed_change_pct: csvParse && csvParseAfter ? Math.round((csvParseAfter / csvParse - 1) * 100) : null,
    real_service_estimate: realServiceEstimate(DEALS),
    cases: cases.map((c) => ({ name: c.name, orders: c.orders, seconds: round(c.seconds), process_wall_s: round(c.wall_ms / 1000), orders_per_s: Math.round(rate(c)), cpu_s: round(c.cpu_ms / 1000), peak_rss_mb: round(c.peak_rss_mb), exit_code: c.code })),
  };
  printTable(results);
  writeFileSync(join(RESULTS, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwritten ${join('bench', 'results', 'latest.json')}`);
  if (cases.some((c) => c.code !== 0)) process.exitCode = 1;
}

const round = (n: number) => Math.round(n * 100) / 100;
/** a bare loop's rate moved more than this between before case 1 and after case 2: the run was not quiet */
const SPEED_CHANGE_WARN_PCT = 10;
const SPEED_CHECK_MIN_DEALS = 200_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function printTable(r: Record<string, any>) {
  console.log('');
  console.log(`${'case'.padEnd(32)}${'orders/s'.padStart(12)}${'time s'.padStart(10)}${'process s'.padStart(11)}${'CPU s'.padStart(10)}${'peak RSS MB'.padStart(14)}`);
  for (const c of r.cases) {
    console.log(`${c.name.padEnd(32)}${fmt(c.orders_per_s).padStart(12)}${fmt(c.seconds, 2).padStart(10)}${fmt(c.process_wall_s, 2).padStart(11)}${fmt(c.cpu_s, 2).padStart(10)}${fmt(c.peak_rss_mb, 1).padStart(14)}${c.exit_code ? `  (exit ${c.exit_code})` : ''}`);
  }
  console.log('time s: the engine\'s recorded run duration (a resident daemon does not boot per sync); the glue script\'s whole process.');
  console.log('process s, CPU s and peak RSS: the whole process (the engine\'s includes booting Nest, the store and the connectors).');
  console.log(`${'6 sandbox add-orders ingest'.padEnd(32)}${(r.sandbox_ingest_per_s === null ? 'n/a' : fmt(r.sandbox_ingest_per_s)).padStart(12)}`);
  console.log('');
  const target = (key: string, value: number | null, goal: string, ok: boolean) => console.log(`${key.padEnd(22)}${String(value).padStart(10)}   target ${goal.padEnd(10)} ${ok ? 'met' : 'MISSED'}`);
  // issue 43's targets for two cores; changed1 and the sandbox keep theirs
  target('full_vs_glue', r.full_vs_glue, '>= 2', r.full_vs_glue >= 2);
  target('nochange_speedup', r.nochange_speedup, '>= 100', r.nochange_speedup >= 100);
  target('changed1_speedup', r.changed1_speedup, '>= 2', r.changed1_speedup >= 2);
  target('latency_vs_glue', r.latency_vs_glue, '>= 7', r.latency_vs_glue >= 7);
  target('peak_rss_mb', r.peak_rss_mb, '<= 150', r.peak_rss_mb <= 150);
  target('sandbox_ingest_per_s', r.sandbox_ingest_per_s, '>= 20000', (r.sandbox_ingest_per_s ?? 0) >= 20000);
  if (r.csv_parse_rows_per_s !== null) {
    console.log(`\nThis machine: a bare csv-parse loop over the same deals file reads ${fmt(r.csv_parse_rows_per_s)} rows/s. The 50 ms ratio (the glue`);
    console.log("script's waits of 50 ms per batch do not shrink on a faster machine, the work does) and the sandbox rate move with");
    console.log("the machine's speed; the other ratios much less.");
  }
  const steady = r.deals >= SPEED_CHECK_MIN_DEALS; // a shorter loop is mostly node's start, and jitters
  if (steady && r.machine_speed_change_pct !== null && Math.abs(r.machine_speed_change_pct) > SPEED_CHANGE_WARN_PCT) {
    console.log(`\nWARNING: the machine's speed changed while cases 1 and 2 ran: the same loop read ${fmt(r.csv_parse_rows_per_s_after_full)} rows/s`);
    console.log(`after them against ${fmt(r.csv_parse_rows_per_s)} before (${r.machine_speed_change_pct > 0 ? '+' : ''}${r.machine_speed_change_pct} %). Something else ran on this machine; full_vs_glue`);
    console.log('compares two processes that got different shares of it. Run the benchmark again on a quiet machine.');
  }
  console.log(`\nAgainst the real service the project budget (8 requests/s, 4,000/h by default) sets the pace, not the engine:`);
  for (const e of r.real_service_estimate) {
    console.log(`  batch_size ${String(e.batch_size).padStart(5)}: ${fmt(e.requests).padStart(7)} requests, ${fmt(e.orders_per_s).padStart(6)} orders/s, full sync of ${fmt(r.deals)} deals in ${duration(e.seconds)}`);
  }
}

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  return h ? `${h} h ${m} min` : m ? `${m} min ${s} s` : `${s} s`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

