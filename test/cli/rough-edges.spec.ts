/**
 * The CLI's rough edges, as a user meets them, with the real CLI in child processes: one clean line and exit 1
 * for every failure (a signal while booting ends it at once), a pipe into `head` that ends quietly, one problem per
 * config mistake, progress bars only on a terminal (util-linux `script` gives one) and otherwise each stream's line
 * once, and a `check` that tries both the service and the CRM (a fixture amoCRM on loopback) and says which side failed.
 */
import type { INestApplication } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SANDBOX_KEY, startSandbox } from '../admin/admin-test-app';
import * as amocrm from '../fixtures/crm/amocrm';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { nodeEntry } from '../support/node-entry';
import { CliResult, PLUGIN_FOLDER, removeDir, ROOT, runCli, tempDir, writeConfig } from './cli-harness';

/** A few good rows and a bad one: `sync` prints a summary and a rejected record after its first line. */
const CSV_ROWS = ['id;title;created_at;price', 'r1;First;01.02.2025;100', 'r2;Second;02.02.2025;200', 'r3;Third;31.02.2025;300'];

const NO_STACK = /^\s+at |node:internal|EPIPE|Error: /m;

/** `node cli.js <args> | head -n <lines>` through bash, as typed in a terminal; the code is the CLI's (PIPESTATUS). */
function pipedIntoHead(args: string[], lines: number, mergeStderr = false): Promise<CliResult> {
  const script = `"$0" "$@" ${mergeStderr ? '2>&1' : '2>"$CLI_STDERR"'} | head -n ${lines}; exit \${PIPESTATUS[0]}`;
  const stderrFile = join(dir, `stderr-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(stderrFile, '');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script, process.execPath, ...nodeEntry('cli'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CLI_STDERR: stderrFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} | head did not end`)), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: stderr + readFileSync(stderrFile, 'utf8') });
    });
  });
}

let dir: string;

describe('cli rough edges (child processes)', () => {
  let sandbox: { app: INestApplication; url: string };
  let crm: CrmServer;
  let sheetConfig: string;

  /** A config with one amoCRM connection `amo` (the fixture CRM) and the service at the test sandbox. */
  const amoConfig = (name: string, apiKey: string, crmToken: string): string => {
    const file = join(dir, name);
    writeFileSync(
      file,
      stringify({
        data_dir: join(dir, `data-${name}`),
        tracker: { base_url: sandbox.url, api_key: apiKey, project: '1', rate_limit: 'off', retries: 1, timeout_ms: 3000 },
        connections: [{ id: 'amo', connector: 'generic-crm', settings: { ...amocrm.settings(crm.url), token: crmToken } }],
      }),
    );
    return file;
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    crm = await startCrmServer(amocrm.handler);
    dir = tempDir();
    const csv = join(dir, 'deals.csv');
    writeFileSync(csv, CSV_ROWS.join('\n'));
    sheetConfig = writeConfig(dir, sandbox.url, SANDBOX_KEY, csv);
  });

  afterAll(async () => {
    await sandbox?.app.close();
    await crm?.close();
    removeDir(dir);
  });

  describe('check tries both sides and names the one that failed', () => {
    it('passes with the right Api-key and CRM token: a line per side', async () => {
      const ok = await runCli(['check', 'amo', '--config', amoConfig('ok.yaml', SANDBOX_KEY, amocrm.TOKEN)], { LOG_LEVEL: 'warn' }, 60_000);
      expect(ok).toMatchObject({ code: 0, stderr: '' });
      // a line per side, then the project's statuses (the connection has a status_map)
      expect(ok.stdout.trim().split('\n')).toEqual([
        `connection amo: service: ok: the service at ${sandbox.url} accepts the Api-key for project 1`,
        `connection amo: source: ok: ${crm.url} answered the managers request`,
        expect.stringMatching(/^connection amo: the project's statuses: 0 \(In work, progress\), 1 \(Paid, paid\), /),
      ]);
    }, 60_000);

    it('fails with a wrong service Api-key, naming the service side; the CRM side still passes', async () => {
      const badKey = 'wrong-service-key-555';
      const result = await runCli(['check', 'amo', '--config', amoConfig('bad-key.yaml', badKey, amocrm.TOKEN)], { LOG_LEVEL: 'warn' }, 60_000);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^connection amo: service: check failed: the service refused the Api-key \(tracker\.api_key, env TRACKER_API_KEY\); the service said HTTP 401/),
      ]);
      expect(result.stdout).toContain('connection amo: source: ok:');
      expect(result.stdout + result.stderr).not.toContain(badKey);
    }, 60_000);

    it('fails with a wrong CRM token, naming the source side; the service side still passes', async () => {
      const result = await runCli(['check', 'amo', '--config', amoConfig('bad-token.yaml', SANDBOX_KEY, 'wrong-crm-token-777')], { LOG_LEVEL: 'warn' }, 60_000);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^connection amo: source: check failed: connection amo, stream managers, GET \S+: the CRM refused the connection's credentials/),
      ]);
      expect(result.stdout).toContain('connection amo: service: ok:');
      expect(result.stdout + result.stderr).not.toContain('wrong-crm-token-777');
    }, 60_000);

    it('--json answers one entry per side, as POST /api/connections/{id}/check', async () => {
      const result = await runCli(['check', 'amo', '--json', '--config', amoConfig('json.yaml', 'wrong-service-key-555', amocrm.TOKEN)], { LOG_LEVEL: 'warn' }, 60_000);
      expect(result.code).toBe(1);
      const body = JSON.parse(result.stdout);
      expect(body).toMatchObject({ connection_id: 'amo', ok: false });
      expect(body.checks).toEqual([
        { name: 'service', ok: false, message: expect.stringContaining('the service refused the Api-key') },
        { name: 'source', ok: true, message: `${crm.url} answered the managers request` },
      ]);
      expect(body.message).toMatch(/^service: failed: the service refused the Api-key.*; source: ok: /);
    }, 60_000);
  });

  it('write-back on a connection that cannot write back: one line and exit 1, with or without --dry-run', async () => {
    const expected = 'connection sheet writes nothing back: its connector has no write capability or settings.write_back.fields is not set\n';
    // at once: two first starts on one fresh store take turns creating its tables (a lock file), with no line about it
    const [dry, wet] = await Promise.all([
      runCli(['write-back', 'sheet', '--dry-run', '--config', sheetConfig], { LOG_LEVEL: 'warn' }, 60_000),
      runCli(['write-back', 'sheet', '--config', sheetConfig], { LOG_LEVEL: 'warn' }, 60_000),
    ]);
    expect(dry).toEqual({ code: 1, stdout: '', stderr: expected });
    expect(wet).toEqual({ code: 1, stdout: '', stderr: expected });
  }, 60_000);

  it('a store that cannot be reached: one line per retry without a stack, and SIGTERM meanwhile ends the command at once', async () => {
    const config = join(dir, 'unreachable-store.yaml');
    writeFileSync(config, stringify({ data_dir: join(dir, 'data-unreachable'), store: { url: 'postgres://user:secret-pw@127.0.0.1:1/db' }, connections: [] }));
    const child = spawn(process.execPath, [...nodeEntry('cli'), 'status', '--config', config], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    // booting: the store is retried every 3 s (about 30 s in all)
    const until = Date.now() + 45_000;
    while (!/Retrying \(1\)/.test(stderr) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stderr).toMatch(/Unable to connect to the database\. Retrying \(1\)\.\.\.: store: cannot open PostgreSQL postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/db: connect ECONNREFUSED/);
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 130, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(3_000);
    expect(stderr).not.toMatch(NO_STACK);
    expect(stderr).not.toContain('secret-pw');
  }, 60_000);

  describe('progress: bars only on a terminal, otherwise each stream once', () => {
    const hasScript = existsSync('/usr/bin/script');
    const onTerminal = (args: string[], stderrFile?: string): Promise<CliResult> => {
      const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
      const command = [process.execPath, ...nodeEntry('cli'), ...args].map(quote).join(' ') + (stderrFile ? ` 2>${quote(stderrFile)}` : '');
      // util-linux `script` runs the command on a pseudo-terminal: stdout and stderr are a TTY, as in a terminal
      return new Promise((resolve, reject) => {
        const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        const timer = setTimeout(() => reject(new Error('script did not end')), 60_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr: stderrFile ? readFileSync(stderrFile, 'utf8') : '' });
        });
      });
    };

    (hasScript ? it : it.skip)('draws bars when stderr is a terminal; with stderr to a file, plain lines there, one per stream', async () => {
      const bars = await onTerminal(['sync', 'sheet', '--full', '--config', sheetConfig]);
      expect(bars.code).toBe(0);
      expect(bars.stdout).toMatch(/deals +\[█+\] 100%/);
      expect(bars.stdout).not.toMatch(/^\d{4}-\d\d-\d\dT\S+ run \d+ deals: /m);

      const logFile = join(dir, 'progress.log');
      const lines = await onTerminal(['sync', 'sheet', '--full', '--config', sheetConfig], logFile);
      expect(lines.code).toBe(0);
      expect(lines.stdout).not.toContain('█');
      expect(lines.stdout).toMatch(/^run \d+ succeeded/m);
      expect(lines.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/WARN: .*deals: 2 deals sent without a visit number$/),
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+ run \d+ deals: 100% \(\d+ B of \d+ B\) · read 3 · sent 2 · /),
      ]);
    }, 120_000);
  });

  describe('piped into head', () => {
    it('sync | head -n 1: the first line, no EPIPE, and the run still finishes and is recorded', async () => {
      const piped = await pipedIntoHead(['sync', 'sheet', '--config', sheetConfig], 1);
      const runId = /^connection sheet: run (\d+) started \(incremental\)\n$/.exec(piped.stdout)?.[1];
      expect(runId).toBeDefined();
      expect(piped.stderr).not.toMatch(NO_STACK);
      expect(piped.code).toBe(0);
      const runs = await runCli(['runs', 'sheet', '--config', sheetConfig], { LOG_LEVEL: 'warn' }, 60_000);
      expect(runs.stdout).toMatch(new RegExp(`^#${runId} succeeded {2}incremental \\(cli\\)`));
    }, 90_000);

    it('stdout and stderr both into head -n 1, and a listing into head -n 0: no stack trace', async () => {
      const both = await pipedIntoHead(['sync', 'sheet', '--full', '--config', sheetConfig], 1, true);
      expect(both.stdout.split('\n')).toHaveLength(2);
      expect(both.stdout + both.stderr).not.toMatch(NO_STACK);
      expect(both.code).toBe(0);
      const listing = await pipedIntoHead(['rejected', 'sheet', '--config', sheetConfig], 0);
      expect(listing).toMatchObject({ code: 0, stdout: '' });
      expect(listing.stderr).not.toMatch(NO_STACK);
      const help = await pipedIntoHead(['--help'], 1);
      expect(help.stdout).toMatch(/^Usage: tracker-sync/);
      expect(help.stderr).toBe('');
    }, 90_000);
  });

  describe('config problems are reported once each', () => {
    const configWith = (name: string, extra: object): string => {
      const file = join(dir, name);
      writeFileSync(
        file,
        stringify({
          data_dir: join(dir, `data-${name}`),
          sandbox: { seed: 'none', budget: 'off' },
          connector_paths: [PLUGIN_FOLDER],
          connections: [{ id: 'plug', connector: 'cli-test-source', settings: { path: join(dir, 'deals.csv'), token: 'tok-123456' } }],
          ...extra,
        }),
      );
      return file;
    };

    it('an invalid key elsewhere does not make a plugin "not a known connector"', async () => {
      const result = await runCli(['status', '--config', configWith('typo.yaml', { tracker: { batch_sizee: 5 } })], {}, 60_000);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^Invalid configuration \S+typo\.yaml \(1 problem\):$/),
        '  tracker.batch_sizee: unknown key (did you mean "batch_size"?)',
      ]);
    }, 60_000);

    it("a broken connector_paths is the one problem, and the plugin's own settings are still checked", async () => {
      const broken = await runCli(['status', '--config', configWith('paths.yaml', { connector_paths: 5 })], {}, 60_000);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain('connector_paths: 5 must be a list of non-empty strings');
      expect(broken.stderr).not.toContain('is not a known connector');
      expect(broken.stderr).toMatch(/\(1 problem\)/);

      const settings = configWith('settings.yaml', {
        tracker: { batch_sizee: 5 },
        connections: [{ id: 'plug', connector: 'cli-test-source', settings: { path: 'x.csv' } }],
      });
      const both = await runCli(['status', '--config', settings], {}, 60_000);
      expect(both.stderr).toMatch(/\(2 problems\)/);
      expect(both.stderr).toContain('tracker.batch_sizee: unknown key');
      expect(both.stderr).toContain('connections[0].settings.token: must be a string');
    }, 60_000);
  });
});
