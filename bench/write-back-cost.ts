/**
 * `npm run bench:write-back -- [--orders 200000] [--deals 6]`
 * What a write-back pass costs on a large project: a file-backed sandbox (the service's limits on) holding
 * `--orders` orders of other integrations created in the last 20 days, and a connection whose CRM (a loopback
 * server) has `--deals` deals on demo visits. The CLI runs as a user runs it (a process each, the daemon's heap
 * cap, the client's default budget): sync, write-back --dry-run, write-back, write-back again. Prints each
 * command's wall time and the plan the dry run chose.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DataSource } from 'typeorm';
import { createSandboxApp } from '../src/sandbox/sandbox-app';
import { SandboxInfo } from '../src/sandbox/sandbox-info';
import { engineEnv, engineNodeFlags } from './processes';
import { SANDBOX_DATA_SOURCE } from '../src/sandbox/storage/sandbox-data-source';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ORDERS = option('--orders', 200_000);
const DEALS = option('--deals', 6);
const CLI = join(resolve(__dirname, '..'), 'src', 'cli.js'); // dist/src/cli.js (this file runs as dist/bench/)
const NODE_FLAGS = engineNodeFlags();
const NODE_ENV = engineEnv();
const HOUR = 3_600_000;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-write-back-'));
  const sandbox = await createSandboxApp({ db: join(dir, 'sandbox.sqlite'), seed: 'demo', apiKey: 'bench-key', budget: 'on' });
  await sandbox.listen(0, '127.0.0.1');
  const crm = await startCrm();
  try {
    const { projectId } = sandbox.get(SandboxInfo).getSandboxInfo();
    const seeded = Date.now();
    await seedOrders(sandbox.get<DataSource>(SANDBOX_DATA_SOURCE), projectId, ORDERS);
    console.log(`seeded ${ORDERS.toLocaleString('en-US')} orders into the sandbox in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    const config = join(dir, 'config.yaml');
    writeFileSync(config, JSON.stringify({
      data_dir: join(dir, 'data'),
      log: { level: 'warn' },
      tracker: { base_url: `${await sandbox.getUrl()}/api/v1`, api_key: 'bench-key', project: String(projectId), timeout_ms: 60_000 },
      connections: [{
        id: 'shop',
        connector: 'generic-crm',
        settings: {
          base_url: crm.url,
          auth: { type: 'none' },
          streams: { deals: { request: { path: '/deals' }, records: 'items', mapping: { id: 'id', title: 'title', created_at: 'created', visit_id: 'visit' } } },
          write_back: { fields: { channel: 'source', city: 'city' }, schedule: '0 3 * * *', request: { method: 'PUT', path: '/deals/{{id}}', body: '{{values}}' } },
        },
      }],
    }));
    const rows: { command: string; seconds: number; exit: number | null; says: string }[] = [];
    for (const command of [['sync'], ['write-back', '--dry-run'], ['write-back'], ['write-back']]) {
      const started = Date.now();
      const run = await cli([...command, 'shop', '--config', config]);
      const lines = `${run.stdout}`.trim().split('\n');
      const says = command[0] === 'sync' ? lines.at(-1) ?? '' : lines.filter((l) => /chosen:|^write-back:|^would write/.test(l)).join(' | ');
      rows.push({ command: command.join(' '), seconds: (Date.now() - started) / 1000, exit: run.status, says });
      if (run.status !== 0) console.error(run.stdout, run.stderr);
    }
    console.log(`write-back on a project of ${ORDERS.toLocaleString('en-US')} orders, a connection of ${DEALS} deals (${crm.updates} CRM updates):`);
    for (const row of rows) console.log(`  ${row.command.padEnd(20)} ${row.seconds.toFixed(1).padStart(6)} s  exit ${row.exit}  ${row.says}`);
  } finally {
    await sandbox.close();
    crm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One CLI command in its own process (the sandbox and the CRM answer from this one, so never a sync spawn). */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...NODE_ENV } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** Orders of other integrations, without visits, written straight into the sandbox's database. */
async function seedOrders(dataSource: DataSource, projectId: number, count: number): Promise<void> {
  await dataSource.query(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO sb_order (project_id, id, name, creation_date, update_date, paid_date, status_id, tracker, client_id, revenue, cost, fields, products, history, hash)
     SELECT ?, 'other-' || i, NULL, strftime('%Y-%m-%dT%H:%M:%S+0000', ?, '-' || (i % 1728000) || ' seconds'), NULL, NULL, '0', NULL, NULL, 1000, NULL, '{}', '[]', '[]', 'seeded'
     FROM n`,
    [count, projectId, new Date(Date.now() - 6 * HOUR).toISOString().slice(0, 19)],
  );
}

/** The connection's CRM: `--deals` deals of the last hours on demo visits; takes PUT /deals/{id}. */
async function startCrm(): Promise<{ url: string; updates: number; close(): void }> {
  const deals = Array.from({ length: DEALS }, (_, i) => ({
    id: `d${i + 1}`, title: `Deal ${i + 1}`, created: new Date(Date.now() - (i + 1) * 60_000).toISOString(), visit: String(1_000_001 + i),
  }));
  const state = { updates: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'PUT') state.updates++;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(req.method === 'GET' ? { items: deals } : { ok: true }));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get updates() {
      return state.updates;
    },
    close: () => server.close(),
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
