import { spawn } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { SerialWriter } from '../../src/store/serial-writer';
import { createStoreDataSource, STORE_FILE } from '../../src/store/store-data-source';
import { StoreRepositories } from '../../src/store/store-repositories';

/**
 * Two processes on one SQLite file in WAL mode (a daemon and a CLI run: two data sources, two connections):
 * a write transaction that reads first must not fail with SQLITE_BUSY when the other commits meanwhile.
 */
describe('store: two processes on one SQLite file', () => {
  let dir: string;
  let daemon: DataSource;
  let cli: DataSource;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-two-'));
    daemon = await createStoreDataSource({ dataDir: dir });
    cli = await createStoreDataSource({ dataDir: dir });
  });
  afterEach(async () => {
    await daemon.destroy();
    await cli.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that reads before it writes waits for the other process instead of failing when it commits meanwhile', async () => {
    const daemonWriter = new SerialWriter(daemon);
    const cliWriter = new SerialWriter(cli);
    let cliWrite: Promise<unknown> = Promise.resolve();
    await daemonWriter.transaction(async (m) => {
      await m.query('SELECT COUNT(*) AS n FROM connection');
      cliWrite = cliWriter.run((c) => c.query(INSERT_CONNECTION, connectionRow('cli')));
      await new Promise((resolve) => setTimeout(resolve, 200)); // the CLI commits here unless this transaction holds the write lock
      await m.query(INSERT_CONNECTION, connectionRow('daemon'));
    });
    await cliWrite;
    const ids = (await daemon.query('SELECT id FROM connection ORDER BY id')).map((r: { id: string }) => r.id);
    expect(ids).toEqual(['cli', 'daemon']);
  });

  it('webhook calls of six connections are all recorded while another process commits checkpoints', async () => {
    const calls = new StoreRepositories(daemon).webhookCalls;
    const cliProcess = spawn(process.execPath, ['-e', CLI_CHECKPOINTS, join(dir, STORE_FILE), '2500'], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    const cliDone = new Promise<string>((resolve) => {
      let out = '';
      cliProcess.stdout!.on('data', (chunk: Buffer) => (out += String(chunk)));
      cliProcess.on('exit', () => resolve(out));
    });
    await new Promise((resolve) => cliProcess.stdout!.once('data', resolve)); // it has begun writing
    const failures: string[] = [];
    let recorded = 0;
    let going = true;
    void cliDone.then(() => (going = false));
    // the daemon reads meanwhile (status page, admin API, a run's lookups) on its one SQLite connection
    const reads = (async () => {
      while (going) await calls.list();
    })();
    await Promise.all([reads, ...Array.from({ length: 6 }, async (_, c) => {
      while (going) {
        await calls.record({ connectionId: `c${c}`, at: new Date(), outcome: 'accepted', acceptedAt: new Date() })
          .then(() => recorded++, (e: Error) => failures.push(e.message));
      }
    })]);
    expect(await cliDone).toMatch(/commits \d+/);
    expect(failures).toEqual([]);
    expect(recorded).toBeGreaterThan(6);
    expect(await calls.list()).toHaveLength(6);
  });
});

const INSERT_CONNECTION = 'INSERT INTO connection (id, connector, settings, paused, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)';

/** The CLI's side: checkpoint-like transactions (a batch of record states and a cursor) for argv[2] ms. */
const CLI_CHECKPOINTS = `
const sqlite3 = require('sqlite3');
const db = new sqlite3.Database(process.argv[1]);
const until = Date.now() + Number(process.argv[2]);
const run = (sql, params = []) => new Promise((ok, fail) => db.run(sql, params, (e) => (e ? fail(e) : ok())));
(async () => {
  await run('PRAGMA busy_timeout = 10000');
  process.stdout.write('started ');
  let commits = 0;
  for (let batch = 0; Date.now() < until; batch++) {
    await run('BEGIN');
    for (let i = 0; i < 50; i++) {
      await run('INSERT OR REPLACE INTO record_state (connection_id, stream, external_id, fingerprint, acknowledged_at) VALUES (?, ?, ?, ?, ?)',
        ['amo', 'deals', 'd' + batch + '-' + i, 'f' + batch, new Date().toISOString()]);
    }
    await run('COMMIT');
    commits++;
    await new Promise((resolve) => setTimeout(resolve, 5)); // the next batch's request
  }
  process.stdout.write('commits ' + commits);
  db.close();
})().catch((e) => { console.error(e.message); process.exit(1); });
`;

function connectionRow(id: string): unknown[] {
  const now = new Date().toISOString();
  return [id, 'generic-crm', '{}', false, now, now];
}
