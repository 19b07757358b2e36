/**
 * SIGTERM in the middle of a run: the daemon lets the batch in flight finish, checkpoints, marks the run
 * interrupted and exits within 10 s; a restart continues from the checkpoint and nothing is lost.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { spawnDaemon } from './daemon-child';
import { api, RunJson, startDaemon, tempDir, waitForFinishedRun } from './daemon-harness';

const TOKEN = 'shutdown-test-admin-token';
const DEMO = 'demo-sheet';

/** The default config with small batches, so that the demo run is still sending when SIGTERM comes. */
function slowConfig(dir: string): string {
  const config = parse(readFileSync('config/tracker-sync.yaml', 'utf8'));
  config.tracker.batch_size = 50;
  config.sandbox.latency_ms = 50;
  const file = join(dir, 'slow.yaml');
  writeFileSync(file, stringify(config));
  return file;
}

/** Waits until the child's run 1 has deals acknowledged by the service (so SIGTERM lands mid-stream). */
async function dealsAcknowledged(url: string, atLeast: number): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const { body } = await api<RunJson>(url, TOKEN, '/api/runs/1');
    if ((body.streams?.deals?.sent ?? 0) >= atLeast) return;
    if (body.status && body.status !== 'running') throw new Error(`run 1 ended before SIGTERM: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('run 1 acknowledged no deals within 60 s');
}

describe('graceful shutdown (SIGTERM) of `node main` mid-run', () => {
  const dataDir = tempDir('shutdown');
  const env = { DATA_DIR: dataDir.path, ADMIN_TOKEN: TOKEN, LOG_FORMAT: 'json' };
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let stopMs: number;
  let childOutput: string;

  beforeAll(async () => {
    const child = spawnDaemon(['--config', slowConfig(dataDir.path)], env);
    try {
      const url = (await child.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
      await dealsAcknowledged(url, 60);
      const signalledAt = Date.now();
      child.proc.kill('SIGTERM');
      exit = await child.exited;
      stopMs = Date.now() - signalledAt;
      childOutput = child.output();
    } finally {
      if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
    }
  }, 90_000);

  afterAll(() => dataDir.remove());

  it('exits 0 within 10 s of SIGTERM, saying why', () => {
    expect(exit).toEqual({ code: 0, signal: null });
    expect(stopMs).toBeLessThan(10_000);
    expect(childOutput).toContain('SIGTERM received: finishing the batch in flight, then stopping');
    expect(childOutput).toMatch(/run 1 demo-sheet interrupted:/);
  });

  describe('after a restart on the same data folder', () => {
    let running: Awaited<ReturnType<typeof startDaemon>>;
    let first: RunJson;
    let second: RunJson;

    beforeAll(async () => {
      running = await startDaemon(env);
      second = await waitForFinishedRun(running.url, TOKEN, DEMO, 2, 30_000);
      first = (await api<RunJson>(running.url, TOKEN, '/api/runs/1')).body;
    }, 60_000);

    afterAll(async () => {
      await running?.stop();
    });

    it('shows the stopped run as interrupted, with the deals it had sent', () => {
      expect(first.status).toBe('interrupted');
      expect(first.finished_at).not.toBeNull();
      expect(first.streams.deals.sent).toBeGreaterThanOrEqual(60);
    });

    it('continues from the checkpoint: re-sends nothing acknowledged, sends the rest', () => {
      expect(second).toMatchObject({ status: 'succeeded', trigger: 'startup' });
      const deals = second.streams.deals;
      expect(deals.unchanged).toBe(first.streams.deals.sent);
      expect(deals.sent + deals.unchanged + deals.rejected).toBe(deals.read);
    });

    it('lost nothing: a full resync finds every order already stored in the service', async () => {
      const started = await api<{ run_id: number }>(running.url, TOKEN, `/api/connections/${DEMO}/resync`, { method: 'POST', body: '{}' });
      expect(started.status).toBe(202);
      const full = await waitForFinishedRun(running.url, TOKEN, DEMO, started.body.run_id, 30_000);
      expect(full).toMatchObject({ status: 'succeeded', mode: 'full' });
      expect(full.streams.deals.sent).toBe(second.streams.deals.sent + second.streams.deals.unchanged);
      expect(full.counters.saved).toBe(0);
      expect(full.counters.skipped_because_not_changed).toBeGreaterThan(900);
    });
  });
});
