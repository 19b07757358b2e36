/**
 * A run left `interrupted` resumes at the next start from its checkpoint, whether or not the connection has a
 * schedule: the demo connection without `schedule` and without `run_on_start`, synced by hand through the admin
 * API, stopped by SIGTERM mid-run, then the daemon started again (both real processes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { spawnDaemon } from './daemon-child';
import { api, RunJson, tempDir, waitForFinishedRun } from './daemon-harness';

const TOKEN = 'resume-test-admin-token';
const DEMO = 'demo-sheet';

/** The default config, slow enough to be stopped mid-run, and the demo connection without schedule or run_on_start. */
function unscheduledConfig(dir: string): string {
  const config = parse(readFileSync('config/tracker-sync.yaml', 'utf8'));
  config.tracker.batch_size = 50;
  config.sandbox.latency_ms = 50;
  delete config.connections[0].schedule;
  config.connections[0].run_on_start = false;
  const file = join(dir, 'unscheduled.yaml');
  writeFileSync(file, stringify(config));
  return file;
}

async function dealsSent(url: string, runId: number, atLeast: number): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const { body } = await api<RunJson>(url, TOKEN, `/api/runs/${runId}`);
    if ((body.streams?.deals?.sent ?? 0) >= atLeast) return;
    if (body.status && body.status !== 'running') throw new Error(`run ${runId} ended before SIGTERM: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} acknowledged no deals within 60 s`);
}

describe('an interrupted run of a connection without a schedule resumes at start-up', () => {
  const dataDir = tempDir('resume');
  const env = { DATA_DIR: dataDir.path, ADMIN_TOKEN: TOKEN, LOG_FORMAT: 'json' };
  let config: string;
  let first: RunJson;
  let resumed: RunJson;
  let runsAfter: RunJson[];
  let restartOutput: string;

  beforeAll(async () => {
    config = unscheduledConfig(dataDir.path);
    const child = spawnDaemon(['--config', config], env);
    try {
      const url = (await child.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
      const started = await api<{ run_id: number }>(url, TOKEN, `/api/connections/${DEMO}/sync`, { method: 'POST', body: '{}' });
      expect(started.status).toBe(202);
      await dealsSent(url, started.body.run_id, 60);
      child.proc.kill('SIGTERM');
      await child.exited;
    } finally {
      if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
    }

    const again = spawnDaemon(['--config', config], env);
    try {
      const url = (await again.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
      resumed = await waitForFinishedRun(url, TOKEN, DEMO, 2, 60_000);
      first = (await api<RunJson>(url, TOKEN, '/api/runs/1')).body;
      runsAfter = (await api<{ runs: RunJson[] }>(url, TOKEN, `/api/runs?connection=${DEMO}`)).body.runs;
      restartOutput = again.output();
      again.proc.kill('SIGTERM');
      await again.exited;
    } finally {
      if (again.proc.exitCode === null && again.proc.signalCode === null) again.proc.kill('SIGKILL');
    }
  }, 150_000);

  afterAll(() => dataDir.remove());

  it('left the first run interrupted, with deals sent', () => {
    expect(first).toMatchObject({ status: 'interrupted', trigger: 'admin' });
    expect(first.streams.deals.sent).toBeGreaterThanOrEqual(60);
  });

  it('starts one run at start-up that continues from the checkpoint: nothing acknowledged is sent again', () => {
    expect(resumed).toMatchObject({ status: 'succeeded', trigger: 'startup', mode: 'incremental' });
    expect(resumed.streams.deals.unchanged).toBe(first.streams.deals.sent);
    expect(resumed.streams.deals.sent + resumed.streams.deals.unchanged + resumed.streams.deals.rejected).toBe(resumed.streams.deals.read);
    expect(runsAfter.map((r) => r.id)).toEqual([2, 1]);
    expect(restartOutput).toMatch(/demo-sheet: run 1 was interrupted; resuming from its checkpoint/);
  });
});
