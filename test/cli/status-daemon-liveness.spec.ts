/**
 * `cli status` beside a daemon, both real processes on one SQLite store: a run going in the daemon is `running` in
 * the CLI too (as the admin API says), and once the daemon is killed the CLI says plainly that no daemon is running,
 * so the schedule's next run is not happening, instead of a next run computed from the cron.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { spawnDaemon, DaemonChild } from '../daemon/daemon-child';
import { api, RunJson, tempDir } from '../daemon/daemon-harness';
import { writeDealsCsv } from '../faults/support/deals-csv';
import { InProcessSandbox } from '../faults/support/sheet-sync';
import { runCli } from './cli-harness';

const TOKEN = 'status-liveness-admin-token';

interface StatusJson {
  connections: { id: string; state: string; next_run_at: string | null; schedule_halted?: string | null; last_run: { id: number; status: string } | null }[];
  schedules_halted?: { reason: string; message: string; last_heartbeat_at: string | null } | null;
}

describe('cli status beside a daemon (two processes, one store)', () => {
  const dir = tempDir('status-liveness');
  const config = join(dir.path, 'config.yaml');
  let sandbox: InProcessSandbox;
  let daemon: DaemonChild | null = null;
  let url = '';
  let runId = 0;

  beforeAll(async () => {
    // 300 ms per answer: the 3,000-deal run (60 batches, one at a time) lasts well beyond the CLI's answers
    sandbox = await InProcessSandbox.start({ latencyMs: 300 });
    const project = await sandbox.project('status-liveness');
    writeDealsCsv(join(dir.path, 'deals.csv'), 3_000);
    writeFileSync(config, stringify({
      server: { port: 0 },
      data_dir: join(dir.path, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project, rate_limit: 'off', retries: 1, timeout_ms: 5_000, batch_size: 50, concurrency: 1 },
      log: { level: 'info' },
      connections: [{ id: 'sheet', connector: 'spreadsheet', schedule: '0 3 * * *', settings: { deals: { path: join(dir.path, 'deals.csv') } } }],
    }));
    daemon = spawnDaemon(['--config', config], { ADMIN_TOKEN: TOKEN });
    url = (await daemon.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
  }, 90_000);

  afterAll(async () => {
    if (daemon && daemon.proc.exitCode === null && daemon.proc.signalCode === null) daemon.proc.kill('SIGKILL');
    await sandbox?.close();
    dir.remove();
  });

  it("shows the daemon's run going as running, as the admin API does", async () => {
    const started = await api<{ run_id: number }>(url, TOKEN, '/api/connections/sheet/sync', { method: 'POST' });
    expect(started.status).toBe(202);
    runId = started.body.run_id;
    await until(async () => ((await api<RunJson>(url, TOKEN, `/api/runs/${runId}`)).body.streams?.deals?.sent ?? 0) > 0, 30_000);

    const [text, json, fromApi] = await Promise.all([
      runCli(['status', '--config', config], {}, 60_000),
      runCli(['status', '--json', '--config', config], {}, 60_000),
      api<StatusJson>(url, TOKEN, '/api/connections'),
    ]);
    // the run is still going (it lasts about 20 s): the three answers are about the same run
    expect((await api<RunJson>(url, TOKEN, `/api/runs/${runId}`)).body.status).toBe('running');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^sheet {2}\\(spreadsheet\\) {2}running {2}last run: #${runId} running .* {2}next run: \\d{4}-`, 'm'));
    expect(text.stdout).not.toMatch(/no daemon/);
    const cli = JSON.parse(json.stdout) as StatusJson;
    expect({ cli: cli.connections[0].state, api: fromApi.body.connections[0].state }).toEqual({ cli: 'running', api: 'running' });
    expect({ cli: cli.schedules_halted, api: fromApi.body.schedules_halted }).toEqual({ cli: null, api: null });
  }, 120_000);

  it('with the daemon killed: no run going, and no next run promised: no daemon is running', async () => {
    daemon!.proc.kill('SIGKILL');
    await daemon!.exited;

    const [text, json] = await Promise.all([
      runCli(['status', '--config', config], {}, 60_000),
      runCli(['status', '--json', '--config', config], {}, 60_000),
    ]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^no daemon is running \(last heartbeat \d+s ago, at \d{4}-[^)]*\): scheduled runs are not happening$/);
    // the killed daemon's run is not taken for a run going (a CLI's start closes its row as interrupted)
    expect(lines[1]).toMatch(new RegExp(`^sheet {2}\\(spreadsheet\\) {2}idle {2}last run: #${runId} (running|interrupted) .* {2}next run: none \\(no daemon is running\\)$`));
    const cli = JSON.parse(json.stdout) as StatusJson;
    // the same line as the text's, the heartbeat's age counted when the --json call ran (a second later, under load)
    const halted = expect.stringMatching(new RegExp(`^${lines[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+s ago/, '\\d+s ago')}$`));
    expect(cli.schedules_halted).toEqual({ reason: 'no_daemon', message: halted, last_heartbeat_at: expect.stringMatching(/^\d{4}-/) });
    expect(cli.connections[0]).toMatchObject({ state: 'idle', next_run_at: null, schedule_halted: halted, last_run: { id: runId } });
  }, 120_000);
});

async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
