/**
 * Issue 8, "Done when": on a fresh data folder with the default config, the daemon comes up, the demo run
 * finishes within 60 s with its counters, and /metrics, /docs, / answer while /api/runs wants the token. The data
 * folder it creates, and every file in it, is its owner's only (records, tokens); one from before is tightened.
 */
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { api, printedToken, RunJson, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from './daemon-harness';

const DEMO = 'demo-sheet';

/** The mode of the folder and of everything under it, by path relative to it. */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = { '.': (statSync(dir).mode & 0o777).toString(8) };
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) found[entry] = (statSync(join(dir, entry)).mode & 0o777).toString(8);
  return found;
}

describe('first start with the default config', () => {
  const tmp = tempDir('first-run');
  // a folder the daemon creates itself
  const dataDir = { path: join(tmp.path, 'data'), remove: () => tmp.remove() };
  let running: RunningDaemon;
  let token: string;
  let run: RunJson;
  let firstRunMs: number;

  beforeAll(async () => {
    const started = Date.now();
    running = await startDaemon({ DATA_DIR: dataDir.path });
    token = printedToken(running.output.text()) ?? '';
    run = await waitForFinishedRun(running.url, token, DEMO, undefined, 60_000);
    firstRunMs = Date.now() - started;
    // the run's row says succeeded a moment before the engine logs its summary and counts it in /metrics
    // (the lease released, the summary read back): wait for that line, which goes out with the 'finished' event
    const until = Date.now() + 10_000;
    while (!running.output.text().includes(`run 1 ${DEMO} `) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  }, 90_000);

  afterAll(async () => {
    await running?.stop();
  });

  it('finishes the demo run within 60 s, succeeded, with the counters that explain it', () => {
    expect(firstRunMs).toBeLessThan(60_000);
    expect(run).toMatchObject({ id: 1, status: 'succeeded', trigger: 'startup', connection_id: DEMO });
    expect(run.streams.managers.read).toBe(10);
    expect(run.streams.clients.read).toBe(300);
    expect(run.streams.deals.read).toBeGreaterThanOrEqual(990);
    expect(run.streams.deals.read).toBeLessThanOrEqual(1000);
    expect(run.streams.deals.rejected).toBeGreaterThan(0);
    expect(run.streams.deals.sent + run.streams.deals.rejected).toBe(run.streams.deals.read);
    expect(run.counters.skipped_by_waiting_visit_info).toBeGreaterThanOrEqual(1);
    expect(run.rejected_count).toBe(run.streams.deals.rejected + run.streams.clients.rejected + run.streams.managers.rejected);
  });

  it('logs a one-line, human-readable summary of the run (pretty by default)', () => {
    const line = running.output.text().split('\n').find((l) => l.includes(`run 1 ${DEMO} succeeded:`));
    expect(line).toBeDefined();
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: /);
    expect(line).toContain(`deals read ${run.streams.deals.read} · sent ${run.streams.deals.sent} · unchanged 0 · rejected ${run.streams.deals.rejected}`);
    expect(line).toContain(`skipped_by_waiting_visit_info ${run.counters.skipped_by_waiting_visit_info}`);
    expect(line).toContain('skipped_by_status');
  });

  it("keeps Nest's start-up chatter (a line per module and route) out of the info level", () => {
    const stdout = running.output.text();
    expect(stdout).toContain('tracker-sync listening on http://127.0.0.1:');
    expect(stdout).not.toMatch(/Mapped \{\/api\/runs, GET\} route|dependencies initialized/);
  });

  it('serves Prometheus metrics with the run counted by status and its records by stream', async () => {
    const res = await fetch(`${running.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`tracker_sync_runs_total{connection="${DEMO}",status="succeeded"} 1`);
    for (const outcome of ['read', 'sent', 'rejected'] as const) {
      expect(text).toContain(`tracker_sync_records_total{connection="${DEMO}",stream="deals",outcome="${outcome}"} ${run.streams.deals[outcome]}`);
    }
    expect(text).toContain(`tracker_sync_records_total{connection="${DEMO}",stream="clients",outcome="sent"} 300`);
    expect(text).toContain(`tracker_sync_service_counter_total{connection="${DEMO}",counter="skipped_by_waiting_visit_info"} ${run.counters.skipped_by_waiting_visit_info}`);
    expect(text).toMatch(/tracker_sync_request_duration_seconds_count\{operation="[^"]+"\} [1-9]/);
  });

  it('answers /, /docs and /health without a token, and /api/runs only with it', async () => {
    const page = await fetch(`${running.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('data-action');
    expect((await fetch(`${running.url}/docs`)).status).toBe(200);
    expect((await fetch(`${running.url}/health`)).status).toBe(200);
    expect((await api(running.url, null, '/api/runs')).status).toBe(401);
    expect((await api(running.url, 'not-the-token', '/api/runs')).status).toBe(401);
    expect((await api(running.url, token, '/api/runs')).status).toBe(200);
  });

  it('prints the generated admin token once, outside any log line, and keeps it under the data folder', () => {
    const stdout = running.output.text();
    expect(token).toBe(readFileSync(join(dataDir.path, 'admin-token'), 'utf8').trim());
    expect(stdout.split(token).length - 1).toBe(1);
    const lineWithToken = stdout.split('\n').find((l) => l.includes(token))!;
    expect(lineWithToken.trim()).toBe(token);
  });

  it('logs neither the admin token nor the sandbox api key', () => {
    const sandboxKey = readFileSync(join(dataDir.path, 'sandbox-api-key'), 'utf8').trim();
    const logLines = running.output.text().split('\n').filter((l) => /^\[\d\d:\d\d:\d\d\]/.test(l));
    expect(logLines.length).toBeGreaterThan(5);
    expect(logLines.filter((l) => l.includes(token) || l.includes(sandboxKey))).toEqual([]);
  });

  it('creates the data folder 0700 and every file in it 0600: the store and the sandbox (with their -wal and -shm), the keys', () => {
    const found = modes(dataDir.path);
    expect(Object.keys(found)).toEqual(expect.arrayContaining(['tracker-sync.sqlite', 'tracker-sync.sqlite-wal', 'sandbox.sqlite', 'admin-token', 'sandbox-api-key']));
    const dirs = new Set(['.', ...Object.keys(found).filter((entry) => statSync(join(dataDir.path, entry)).isDirectory())]);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((entry) => [entry, dirs.has(entry) ? '700' : '600'])));
  });

  describe('second start on the same data folder', () => {
    let again: RunningDaemon;
    /** an installation from before: its folder and files made with the umask's 0755 and 0644 */
    const before = ['tracker-sync.sqlite', 'admin-token', 'sandbox.sqlite'];

    beforeAll(async () => {
      await running.stop();
      chmodSync(dataDir.path, 0o755);
      for (const file of before) chmodSync(join(dataDir.path, file), 0o644);
      again = await startDaemon({ DATA_DIR: dataDir.path });
    }, 30_000);

    it("makes an earlier installation's folder and files its owner's only, saying so once for each", () => {
      expect(modes(dataDir.path)).toMatchObject({ '.': '700', 'tracker-sync.sqlite': '600', 'sandbox.sqlite': '600', 'admin-token': '600' });
      const said = again.output.text().split('\n').filter((line) => line.includes('could be read by other users'));
      expect(said.map((line) => /INFO: (\S+) could be read by other users \(mode (\d+)\): now (\d+)/.exec(line)?.slice(1))).toEqual([
        [dataDir.path, '0755', '0700'],
        ...before.map((file) => [join(dataDir.path, file), '0644', '0600']),
      ]);
    });

    afterAll(async () => {
      await again?.stop();
      dataDir.remove();
    });

    it('prints no token, accepts the stored one, and sends nothing that did not change', async () => {
      const second = await waitForFinishedRun(again.url, token, DEMO, 2, 30_000);
      const stdout = again.output.text();
      expect(stdout).not.toContain('Admin API token');
      expect(stdout).not.toContain(token);
      expect(second).toMatchObject({ status: 'succeeded', trigger: 'startup' });
      expect(second.streams.deals?.sent ?? 0).toBe(0);
    });
  });
});
