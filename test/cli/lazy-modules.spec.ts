import { spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { isFresh, ROOT } from '../support/node-entry';

/**
 * What a CLI process loads (issue 43's memory target: the loaded app is the process's floor). The compiled CLI
 * (`npm run build` first) runs with test/support/loaded-modules.js preloaded, which lists every file each thread
 * loads: a sync loads none of the HTTP surface (admin API, status page, alerts and their mailer, webhooks), no
 * cluster queue, no XLSX reader for a CSV, no prettifier for JSON logs; its read thread only the connector and
 * the mappings (no Nest, no store, no HTTP client for a local file).
 */
const CLI = join(ROOT, 'dist', 'src', 'cli.js');
const PRELOAD = join(ROOT, 'test', 'support', 'loaded-modules.js');

const MAIN_NEVER = [
  /\/node_modules\/nodemailer\//,
  /\/node_modules\/pino-pretty\//,
  /\/node_modules\/prompts\//,
  /\/node_modules\/(bullmq|ioredis|@bull-board\/[^/]+|@nestjs\/bullmq)\//,
  /\/node_modules\/(exceljs|pg)\//,
  /\/dist\/src\/(admin|status-page)\//,
  /\/dist\/src\/alerts\/(?!alerts-options)/, // the options' token only
  /\/dist\/src\/webhooks\/.*(module|controller)\.js$/, // the CLI's webhooks command keeps its registration service
];
const WORKER_NEVER = [/\/node_modules\/@nestjs\//, /\/node_modules\/(typeorm|sqlite3|axios|exceljs)\//, /\/dist\/src\/(store|engine\/(run|stream))\//];

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', PRELOAD, CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** the files each thread loaded, by thread id */
function loaded(dir: string): Map<number, string[]> {
  const threads = new Map<number, string[]>();
  for (const file of readdirSync(dir)) threads.set(Number(file.replace('.txt', '')), readFileSync(join(dir, file), 'utf8').trim().split('\n'));
  return threads;
}

const offending = (files: string[], never: RegExp[]) => files.filter((f) => never.some((re) => re.test(f.split('\\').join('/'))));

describe('what the CLI loads', () => {
  let dir: string;
  let sink: Server;
  let url: string;

  beforeAll(async () => {
    expect(isFresh(CLI)).toBe(true); // the compiled CLI is what is measured: `npm run build --silent` first
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-lazy-'));
    // the service: every add-orders batch saved
    sink = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const n = req.url?.includes('add-orders') ? (JSON.parse(Buffer.concat(chunks).toString()) as unknown[]).length : 0;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: 'success', uploaded: n, processed: n, saved: n, skipped_by_status: 0, skipped_by_waiting_visit_info: 0, skipped_by_internal_error: 0, skipped_because_not_changed: 0, skipped_by_invalid_format: 0, skipped_fields_by_invalid_format: 0, comment: '' }));
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    const rows = ['id,title,status,created_at,updated_at,price,visit_id,client_id'];
    for (let i = 1; i <= 50; i++) rows.push(`d${i},Deal ${i},1,2025-01-01 00:00:${String(i % 60).padStart(2, '0')},2025-01-01 01:00:00,${1000 + i},${1000000 + i},c${i}`);
    writeFileSync(join(dir, 'deals.csv'), rows.join('\n') + '\n');
  });

  afterAll(async () => {
    await new Promise((resolve) => sink.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  function config(name: string, workers: number): string {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify({
      data_dir: join(dir, `data-${name}`),
      log: { level: 'warn' },
      tracker: { base_url: url, api_key: 'k', project: '1', rate_limit: 'off', workers },
      connections: [{ id: 'sheet', connector: 'spreadsheet', settings: { deals: { path: join(dir, 'deals.csv'), timezone: 'UTC' } } }],
    }));
    return file;
  }

  it('a sync loads none of the HTTP surface, the cluster queue, the XLSX reader or the prettifier; its read thread only the connector and mappings', async () => {
    const out = mkdtempSync(join(dir, 'sync-'));
    const result = await run(['sync', 'sheet', '--full', '--config', config('sync', 1)], { LOADED_MODULES_DIR: out });
    expect(result).toMatchObject({ code: 0 });
    const threads = loaded(out);
    const main = threads.get(0)!;
    expect(main.some((f) => f.includes('/dist/src/engine/'))).toBe(true); // the list is real
    expect(offending(main, MAIN_NEVER)).toEqual([]);
    const reader = [...threads.entries()].find(([, files]) => files.some((f) => f.endsWith('read-worker.js')));
    expect(reader).toBeDefined();
    expect(reader![1].some((f) => f.includes('/connectors/spreadsheet/'))).toBe(true);
    expect(offending(reader![1], WORKER_NEVER)).toEqual([]);
  }, 60_000);
});
