import type { INestApplication } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_KEY, startSandbox } from '../admin/admin-test-app';
import { removeDir, runCliInProcess, tempDir, writeConfig } from './cli-harness';

const ROWS = ['id;title;created_at;price', 'r1;First;01.02.2025;100', 'r2;Second;02.02.2025;200', 'r3;Third;31.02.2025;300'];

/** The CLI's commands in this process (src/cli/run-cli.ts, the same path src/cli.ts takes). */
describe('cli commands', () => {
  let sandbox: { app: INestApplication; url: string };
  let dir: string;
  let csv: string;
  let config: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = tempDir();
    csv = join(dir, 'deals.csv');
    writeFileSync(csv, ROWS.join('\n'));
    config = writeConfig(dir, sandbox.url, SANDBOX_KEY, csv);
  });

  afterAll(async () => {
    await sandbox?.app.close();
    removeDir(dir);
  });

  it('syncs, then sends nothing unchanged on the second run', async () => {
    const first = await runCliInProcess(['sync', 'sheet', '--config', config]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^deals: read 3 · sent 2 · unchanged 0 · rejected 1 · /m);
    // progress: how far through the source (the fixture reports its file's bytes), then the stream's last numbers
    expect(first.stderr).toMatch(/^\S+ run \d+ deals: 100% \(\d+ B of \d+ B\) · read 3 · sent 2 · unchanged 0 · rejected 1/m);
    const second = await runCliInProcess(['sync', 'sheet', '--config', config]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^deals: read 3 · sent 0 · unchanged 2 · rejected 1 · /m);
    const full = await runCliInProcess(['sync', 'sheet', '--full', '--config', config]);
    expect(full.stdout).toMatch(/started \(full\)/);
    expect(full.stdout).toMatch(/^deals: read 3 · sent 2 · /m);
  });

  it('shows status (state, last run, next run) and runs', async () => {
    const status = await runCliInProcess(['status', '--config', config]);
    expect(status.code).toBe(0);
    // no daemon runs on this store: the CLI says so first, and promises no next run (its cron fires nowhere)
    expect(status.stdout).toMatch(/^no daemon is running \(no daemon has a heartbeat in the store\): scheduled runs are not happening\n/);
    expect(status.stdout).toMatch(/^sheet {2}\(cli-test-source\) {2}idle {2}last run: #\d+ succeeded .* next run: none \(no daemon is running\)$/m);

    const runs = await runCliInProcess(['runs', 'sheet', '--limit', '2', '--config', config]);
    expect(runs.code).toBe(0);
    const lines = runs.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^#3 succeeded {2}full \(cli\)/);
    expect(lines[1]).toMatch(/^#2 succeeded {2}incremental \(cli\)/);
    expect(lines[2]).toBe('… 1 older runs (use --limit)');
  });

  it('checks a connection, and previews records and payloads without sending', async () => {
    const check = await runCliInProcess(['check', 'sheet', '--config', config]);
    expect(check).toMatchObject({
      code: 0,
      stdout: `connection sheet: service: ok: the service at ${sandbox.url} accepts the Api-key for project 1\nconnection sheet: source: ok: deals.csv is readable\n`,
    });

    const preview = await runCliInProcess(['preview', 'sheet', '--stream', 'deals', '--limit', '2', '--config', config]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('deals r1 (deals.csv row 2): unchanged');
    expect(preview.stdout).toMatch(/payload: +\{\n +"id": "r1",\n +"date_create": "2025-02-01 00:00:00\+0000"/);
    expect(preview.stdout).toContain('rejected deals r3 (deals.csv row 4) created_at: "31.02.2025" is not a valid date');
    const runs = await runCliInProcess(['runs', 'sheet', '--config', config]);
    expect(runs.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('refuses bad arguments and unknown connections with exit 1', async () => {
    expect((await runCliInProcess(['sync', 'nope', '--config', config])).stderr).toContain('connection "nope" is not configured');
    expect((await runCliInProcess(['check', 'nope', '--config', config])).code).toBe(1);
    expect((await runCliInProcess(['sync', 'sheet', '--since', '2025-13-45', '--config', config])).code).toBe(1);
    expect((await runCliInProcess(['sync', 'sheet', '--full', '--since', '2025-01-01', '--config', config])).code).toBe(1);
  });

  it('prints every problem of a bad config and exits 1', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'tracker:\n  batch_size: -5\nconnections:\n  - id: "bad id!"\n    connector: nope\n');
    const result = await runCliInProcess(['status', '--config', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Invalid configuration .*bad\.yaml \(\d+ problems\):/);
    expect(result.stderr).toContain('batch_size');
    expect(result.stderr).toContain('connections[0].id');
    expect(result.stdout).toBe('');
  });

  it('serves the embedded sandbox itself when the config names no service', async () => {
    const embedded = writeConfig(dir, null, '', csv, 'embedded.yaml');
    const result = await runCliInProcess(['sync', 'sheet', '--config', embedded]);
    // stderr: only the stream's progress line (no problem)
    expect(result.stderr).toMatch(/^\S+ run 1 deals: 100% [^\n]*\n$/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^deals: read 3 · sent 2 · /m);
  });
});

/** What the admin API does, from the command line: pause, resume, reset, retry, and `--json` answers. */
describe('cli admin commands', () => {
  let sandbox: { app: INestApplication; url: string };
  let dir: string;
  let config: string;
  const cli = (...args: string[]) => runCliInProcess([...args, '--config', config]);
  const json = async (...args: string[]) => {
    const result = await cli(...args, '--json');
    expect(result.stderr).toBe('');
    return { code: result.code, body: JSON.parse(result.stdout) };
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = tempDir();
    const csv = join(dir, 'deals.csv');
    writeFileSync(csv, ROWS.join('\n'));
    config = writeConfig(dir, sandbox.url, SANDBOX_KEY, csv, 'config.yaml', { incremental: true });
  });

  afterAll(async () => {
    await sandbox?.app.close();
    removeDir(dir);
  });

  it('sync --json prints the finished run as GET /api/runs/{id} answers, and nothing else', async () => {
    const { code, body } = await json('sync', 'sheet');
    expect(code).toBe(0);
    expect(body).toMatchObject({ connection_id: 'sheet', mode: 'incremental', trigger: 'cli', status: 'succeeded', rejected_count: 1 });
    expect(body.streams.deals).toMatchObject({ read: 3, sent: 2, rejected: 1 });
    expect(body.counters).toHaveProperty('skipped_by_status');
  });

  it('status, runs, check and preview answer JSON with --json, secrets redacted', async () => {
    const status = await json('status');
    expect(status.body.connections).toHaveLength(1);
    expect(status.body.connections[0]).toMatchObject({ id: 'sheet', connector: 'cli-test-source', state: 'idle', paused: false });
    expect(status.body.connections[0].cursors.deals.value).toBe('2025-02-02T00:00:00.000Z');
    expect(JSON.stringify(status.body)).not.toContain('cli-secret-token-31337');

    const runs = await json('runs', 'sheet', '--limit', '1');
    expect(runs.body).toMatchObject({ total: 1, limit: 1, offset: 0 });
    expect(runs.body.runs[0]).toMatchObject({ status: 'succeeded', trigger: 'cli' });

    expect((await json('check', 'sheet')).body).toMatchObject({
      connection_id: 'sheet',
      ok: true,
      checks: [{ name: 'service', ok: true, message: expect.any(String) }, { name: 'source', ok: true, message: 'deals.csv is readable' }],
    });

    const preview = await json('preview', 'sheet', '--limit', '1');
    expect(preview.body.connectionId).toBe('sheet');
    expect(preview.body.streams[0].records[0].payload).toMatchObject({ id: 'r1' });
  });

  it('pause stops scheduled runs, resume brings them back', async () => {
    const paused = await cli('pause', 'sheet');
    expect(paused).toMatchObject({ code: 0, stdout: 'connection sheet: paused; scheduled runs are skipped until `resume sheet`\n' });
    expect((await cli('status')).stdout).toMatch(/^sheet {2}\(cli-test-source\) {2}paused {2}.* {2}next run: paused$/m);
    expect((await json('status')).body.connections[0]).toMatchObject({ paused: true, state: 'paused', next_run_at: null });

    const resumed = await json('resume', 'sheet');
    expect(resumed.body).toMatchObject({ id: 'sheet', paused: false, state: 'idle' });
    // resumed, but no daemon runs on this store to fire its schedule: no next run is promised
    expect(resumed.body).toMatchObject({ next_run_at: null, schedule_halted: expect.stringMatching(/^no daemon is running .*: scheduled runs are not happening$/) });
    expect((await cli('resume', 'sheet')).stdout).toMatch(/^connection sheet: resumed; next run: none \(no daemon is running\)$/m);
  });

  it("reset forgets the cursors, as DELETE /api/connections/{id}/cursors", async () => {
    expect(await cli('reset', 'sheet')).toMatchObject({
      code: 0,
      stdout: 'connection sheet: 1 cursor(s) cleared; the next run reads every stream from the beginning\n',
    });
    expect((await json('status')).body.connections[0].cursors).toEqual({});
    expect((await json('reset', 'sheet')).body).toEqual({ connection_id: 'sheet', cleared: 0 });
  });

  it("retry sends a run's rejected records again in a new run and prints its summary", async () => {
    const first = (await json('runs', 'sheet', '--limit', '1')).body.runs[0];
    const retry = await cli('retry', String(first.id));
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(new RegExp(`^connection sheet: run (\\d+) started \\(retrying the 1 rejected record\\(s\\) of run ${first.id}\\)$`, 'm'));
    // r3's date is still impossible: read again, rejected again
    expect(retry.stdout).toMatch(/^deals: read 1 · sent 0 · unchanged 0 · rejected 1 · /m);
    expect(retry.stdout).toContain('rejected deals r3 (deals.csv row 4) created_at: "31.02.2025" is not a valid date');

    const again = await json('retry', String(first.id));
    expect(again.code).toBe(0);
    expect(again.body).toMatchObject({ connection_id: 'sheet', mode: 'retry', trigger: 'cli', status: 'succeeded', rejected_count: 1 });
    expect(again.body.id).toBeGreaterThan(first.id);
  });

  it('names an unknown run or connection, exit 1', async () => {
    expect(await cli('retry', '999')).toMatchObject({ code: 1, stdout: '', stderr: 'run 999 does not exist\n' });
    expect((await cli('retry', 'abc')).code).toBe(1);
    for (const command of ['pause', 'resume', 'reset']) {
      // the CLI sees the whole config: it names the connections there are
      expect(await cli(command, 'nope')).toMatchObject({ code: 1, stderr: 'connection "nope" is not configured (the config\'s connections: sheet)\n' });
    }
  });
});

describe('cli application context', () => {
  it('boots the daemon services without timers or start-up runs', async () => {
    const { createCliApp } = await import('../../src/cli/cli-app');
    const { SchedulerRegistry } = await import('@nestjs/schedule');
    const { SchedulerService } = await import('../../src/scheduler');
    const { RunsQueryService } = await import('../../src/admin');
    const dir = tempDir();
    try {
      const csv = join(dir, 'deals.csv');
      writeFileSync(csv, ROWS.join('\n'));
      const file = join(dir, 'c.yaml');
      writeFileSync(
        file,
        [
          `data_dir: ${join(dir, 'data')}`,
          `connector_paths: [${join(__dirname, 'fixtures')}]`,
          'connections:',
          '  - id: sheet',
          '    connector: cli-test-source',
          '    schedule: "* * * * * *"',
          '    run_on_start: true',
          `    settings: { path: ${csv}, token: abcdefgh }`,
        ].join('\n'),
      );
      const cli = await createCliApp(['node', 'cli.js', '--config', file], { PATH: process.env.PATH });
      try {
        expect(cli.context.app.get(SchedulerRegistry).getCronJobs().size).toBe(0);
        expect(await cli.context.app.get(SchedulerService).nextRun('sheet')).toBeInstanceOf(Date);
        await new Promise((r) => setTimeout(r, 1200));
        expect((await cli.context.app.get(RunsQueryService).list({ limit: 10, offset: 0 })).total).toBe(0);
      } finally {
        await cli.close();
      }
    } finally {
      removeDir(dir);
    }
  });
});
