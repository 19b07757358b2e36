/**
 * Reads a generated deals CSV (default 1,000,000 rows, 3 products each) with the spreadsheet connector and
 * prints rows/s and peak RSS; then reads it again with the state of the first read (the no-change path).
 *   node dist/bench/read-csv.js [--rows N] [--dir FOLDER] [--file CSV] [--bare]
 * `--bare` times a bare csv-parse loop over the same file instead (the ceiling the connector lives under).
 * `--file` reads that CSV instead of a generated one (npm run bench times its own deals file this way).
 * The file is generated once into FOLDER (default: the OS temp folder) by a child process, so that the
 * generation does not count in this process's maxRSS, and reused.
 */
import '../src/connectors/serve-contract'; // first: the connector imports tracker-sync/connector
import { execFileSync } from 'child_process';
import { parse } from 'csv-parse';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { once } from 'events';
import spreadsheetConnector from '../connectors/spreadsheet';
import type { Page, ReadContext } from '../src/connectors/connector-definition';
import type { SpreadsheetSettings } from '../connectors/spreadsheet/settings';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

async function generate(file: string, rows: number): Promise<void> {
  const out = createWriteStream(`${file}.part`);
  let header = 'id,title,status,created_at,updated_at,price,cost,visit_id,client_id,manager_id';
  for (let p = 1; p <= 3; p++) header += `,product_${p}_id,product_${p}_name,product_${p}_price,product_${p}_quantity,product_${p}_category`;
  let chunk = `${header}\n`;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 1; i <= rows; i++) {
    const at = new Date(start + i * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    chunk += `D${i},Deal ${i},${i % 3},${at},${at},${(i % 1000) * 10 + 0.5},${i % 100},${100000 + i},C${i % Math.max(1, rows / 5)},M${i % 20}`;
    for (let p = 1; p <= 3; p++) chunk += `,P${(i * p) % 5000},Product ${p},${p * 100},${p},Catalog > Group ${p}`;
    chunk += '\n';
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  renameSync(`${file}.part`, file);
}

async function readAll(context: ReadContext<SpreadsheetSettings>) {
  let records = 0;
  let rejected = 0;
  let state: Record<string, unknown> | null = null;
  let unchanged = false;
  const cursor = { since: null, until: new Date('2100-01-01T00:00:00Z') };
  for await (const page of spreadsheetConnector.read('deals', cursor, context) as AsyncIterable<Page>) {
    records += page.records.length;
    rejected += page.rejected?.length ?? 0;
    state = page.state ?? state;
    unchanged ||= !!page.unchanged;
  }
  return { records, rejected, state, unchanged };
}

async function bareLoop(file: string): Promise<number> {
  let rows = 0;
  for await (const record of createReadStream(file).pipe(parse({ relax_column_count: true }))) if (record) rows++;
  return rows - 1;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main(): Promise<void> {
  const rows = Number(option('rows', '1000000'));
  const dir = option('dir', join(tmpdir(), 'tracker-sync-bench'));
  mkdirSync(dir, { recursive: true });
  const file = option('file', join(dir, `deals-${rows}.csv`));
  if (process.argv.includes('--generate-only')) return generate(file, rows);
  if (!existsSync(file)) {
    console.log(`generating ${file} ...`);
    execFileSync(process.execPath, [__filename, '--generate-only', '--rows', String(rows), '--dir', dir], { stdio: 'inherit' });
  }
  if (process.argv.includes('--bare')) {
    const started = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    const read = await bareLoop(file);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    console.log(
      `bare csv-parse loop: ${read} rows in ${seconds.toFixed(2)} s = ${Math.round(read / seconds)} rows/s ` +
        `(CPU ${cpuSeconds.toFixed(2)} s = ${Math.round(read / cpuSeconds)} rows per CPU-second), maxRSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
    return;
  }
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const logger = { log: () => undefined, warn: (m: string) => console.warn(m) };
  const context: ReadContext<SpreadsheetSettings> = {
    connectionId: 'bench',
    settings: { deals: { path: file } },
    logger,
    state: null,
  };
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const full = await readAll(context);
  const fullSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const again = process.hrtime.bigint();
  const second = await readAll({ ...context, state: full.state });
  const unchangedSeconds = Number(process.hrtime.bigint() - again) / 1e9;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  console.log(`file: ${file}`);
  console.log(`full read: ${full.records} records, ${full.rejected} rejected in ${fullSeconds.toFixed(2)} s = ${Math.round(full.records / fullSeconds)} rows/s (CPU ${cpuSeconds.toFixed(2)} s = ${Math.round(full.records / cpuSeconds)} rows per CPU-second)`);
  console.log(`no-change read: unchanged=${second.unchanged} in ${unchangedSeconds.toFixed(2)} s`);
  console.log(`peak RSS: ${mb(peakRss)} MB (sampled), maxRSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
