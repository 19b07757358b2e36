import type { INestApplication } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_KEY, startSandbox } from '../admin/admin-test-app';
import { CliResult, removeDir, runCli, startFailingService, tempDir, writeConfig } from './cli-harness';

export const CSV_ROWS = [
  'id;title;created_at;price',
  'r1;First;01.02.2025;100',
  'r2;Second;02.02.2025;200',
  'r3;Third;31.02.2025;300',
  'r4;Fourth;03.02.2025;400',
  ...Array.from({ length: 22 }, (_, i) => `b${i + 1};Broken ${i + 1};99.99.2025;10`),
];

/** `node src/cli.ts sync` as a child process against loopback services: output lines and exit codes. */
describe('cli sync (child process)', () => {
  let sandbox: { app: INestApplication; url: string };
  let failing: Awaited<ReturnType<typeof startFailingService>>;
  let dir: string;
  let ok: CliResult;
  let failed: CliResult;
  let embedded: CliResult;
  let json: CliResult;
  let jsonConfig: string;

  // Both children start at once: most of their time is ts-node compiling the daemon's modules.
  beforeAll(async () => {
    sandbox = await startSandbox();
    failing = await startFailingService();
    dir = tempDir();
    const csv = join(dir, 'deals.csv');
    writeFileSync(csv, CSV_ROWS.join('\n'));
    const okConfig = writeConfig(dir, sandbox.url, SANDBOX_KEY, csv);
    const failingConfig = writeConfig(dir, failing.url, 'failing-key-123', csv, 'failing.yaml');
    const embeddedConfig = writeConfig(dir, null, '', csv, 'embedded.yaml');
    jsonConfig = writeConfig(dir, sandbox.url, SANDBOX_KEY, csv, 'json.yaml');
    [ok, failed, embedded, json] = await Promise.all([
      runCli(['sync', 'sheet', '--config', okConfig], {}, 80_000),
      runCli(['sync', 'sheet', '--config', failingConfig], {}, 80_000),
      runCli(['status', '--config', embeddedConfig], {}, 80_000),
      runCli(['sync', 'sheet', '--json', '--config', jsonConfig], { LOG_LEVEL: 'warn' }, 80_000),
    ]);
  }, 90_000);

  afterAll(async () => {
    await sandbox?.app.close();
    failing?.server.close();
    removeDir(dir);
  });

  it('prints a summary line per stream and the first 20 rejected records, and exits 0 despite them', () => {
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^run \d+ succeeded/m);
    expect(ok.stdout).toMatch(
      /^deals: read 26 · sent 3 · unchanged 0 · rejected 23 · skipped_by_status 0 · skipped_by_waiting_visit_info 0 · skipped_by_internal_error 0 · /m,
    );
    expect(ok.stdout).toContain('rejected deals r3 (deals.csv row 4) created_at: "31.02.2025" is not a valid date');
    expect(ok.stdout.split('\n').filter((l) => l.startsWith('rejected deals '))).toHaveLength(20);
    expect(ok.stdout).toMatch(/^… and 3 more$/m);
    expect(ok.stdout).not.toContain('cli-secret-token-31337');
  });

  it('shows progress on stderr as plain lines when it is not a terminal: each stream once, how far through the source, and the numbers', () => {
    const progress = ok.stderr.split('\n').filter((l) => / run \d+ deals: /.test(l));
    expect(progress).toHaveLength(1);
    expect(progress[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+ run \d+ deals: 100% \(\d+ B of \d+ B\) · read 26 · sent 3 · unchanged 0 · rejected 23/);
    expect(ok.stdout).not.toMatch(/ run \d+ deals: /);
  });

  it('--json prints one JSON document, the finished run as GET /api/runs/{id} answers', () => {
    // stderr holds problems only: here the one warning about the deals sent without a visit number
    expect(json.code).toBe(0);
    expect(json.stderr.trim().split('\n')).toEqual([expect.stringMatching(/WARN: .*deals: 3 deals sent without a visit number$/)]);
    const run = JSON.parse(json.stdout);
    expect(run).toMatchObject({ connection_id: 'sheet', status: 'succeeded', trigger: 'cli', rejected_count: 23 });
    expect(run.streams.deals).toMatchObject({ read: 26, sent: 3, rejected: 23 });
  });

  it('pauses a connection, and answers status with --json', async () => {
    const paused = await runCli(['pause', 'sheet', '--config', jsonConfig], {}, 60_000);
    expect(paused).toMatchObject({ code: 0, stdout: 'connection sheet: paused; scheduled runs are skipped until `resume sheet`\n' });
    const status = await runCli(['status', '--json', '--config', jsonConfig], {}, 60_000);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).connections[0]).toMatchObject({ id: 'sheet', paused: true, state: 'paused', next_run_at: null });
  }, 90_000);

  it("prints only the answer on stdout: the run's log lines go to stderr at the configured level", () => {
    expect(ok.stdout).not.toMatch(/INFO|\[SyncEngine\]/);
    const logLines = ok.stderr.split('\n').filter((l) => l !== '');
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines.filter((l) => !/^\d{4}-\d\d-\d\dT\S+ run \d+ /.test(l))) expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] (INFO|WARN): /);
    expect(ok.stderr).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: \[SyncEngine\] \[sheet run \d+\] run started: mode incremental, trigger cli$/m);
  });

  it('prints no framework log line, with the embedded sandbox serving its hundred routes', () => {
    expect(embedded.code).toBe(0);
    // no daemon runs on this store: said first, and no next run promised
    expect(embedded.stdout.trim().split('\n')).toEqual([
      'no daemon is running (no daemon has a heartbeat in the store): scheduled runs are not happening',
      expect.stringMatching(/^sheet {2}\(cli-test-source\) {2}idle {2}last run: never {2}next run: none \(no daemon is running\)$/),
    ]);
    expect(embedded.stderr).not.toMatch(/Nest|Mapped \{|RouterExplorer|InstanceLoader|RoutesResolver/);
  });

  it('exits non-zero when the service keeps failing', () => {
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^run \d+ failed/m);
    expect(failed.stderr).toMatch(/^error: /m);
    expect(failed.stderr).not.toContain('failing-key-123');
    expect(failing.hits()).toBeGreaterThan(0);
  });
});
