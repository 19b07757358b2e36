/**
 * The daemon's disk fills up (its store on a real tmpfs that a filler file takes whole: SQLite answers SQLITE_FULL)
 * while a connection's schedule ticks every two seconds: every tick fails to start its run before a run row
 * exists. /health must not answer `ok` meanwhile, and /metrics must count those ticks; with room again, both say so.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { api, RunningDaemon, startDaemon, tempDir } from '../daemon/daemon-harness';
import { describeFullDisk, FullDisk } from '../support/full-disk';

const TOKEN = 'store-full-health-token';

interface Health {
  status: string;
  info?: Record<string, { status: string }>;
  error?: Record<string, { status: string; message?: string; write_error?: string }>;
}

describeFullDisk('a full disk under the store: /health and /metrics say so', () => {
  const dir = tempDir('store-full');
  let disk: FullDisk;
  let daemon: RunningDaemon;

  beforeAll(async () => {
    disk = FullDisk.mount(32)!;
    writeFileSync(join(dir.path, 'deals.csv'), 'id,title,status,created_at,price\nD1,One,0,2025-01-01T10:00:00Z,100\n');
    const config = join(dir.path, 'config.yaml');
    writeFileSync(config, stringify({
      server: { port: 0 },
      data_dir: join(disk.dir, 'data'),
      sandbox: { seed: 'none', db: ':memory:', budget: 'off' },
      tracker: { rate_limit: 'off' },
      log: { level: 'error', format: 'json' },
      connections: [{ id: 'sheet', connector: 'spreadsheet', schedule: '*/2 * * * * *', settings: { deals: { path: join(dir.path, 'deals.csv') } } }],
    }));
    daemon = await startDaemon({ ADMIN_TOKEN: TOKEN }, config);
  }, 60_000);

  afterAll(async () => {
    disk?.free();
    await daemon?.stop();
    disk?.unmount();
    dir.remove();
  });

  it('answers ok while the store takes writes', async () => {
    const health = await api<Health>(daemon.url, null, '/health');
    expect([health.status, health.body.status]).toEqual([200, 'ok']);
  });

  it('disk full: /health reports the store down, naming SQLITE_FULL', async () => {
    disk.fill();
    const health = await poll(() => api<Health>(daemon.url, null, '/health'), (h) => h.status === 503, 15_000);
    expect(health.status).toBe(503);
    expect(health.body.error?.store).toMatchObject({ status: 'down', write_error: expect.stringMatching(/SQLITE_FULL/) });
    expect(health.body.error?.store.message).toMatch(/^the store cannot be written: SQLITE_FULL: database or disk is full/);
  }, 20_000);

  it('disk full: /metrics and the connection count the scheduled ticks that could not start a run', async () => {
    const failedTicks = /^tracker_sync_schedule_ticks_total\{connection="sheet",flow="sync",outcome="failed"\} (\d+)$/m;
    const metrics = await poll(async () => (await fetch(`${daemon.url}/metrics`)).text(), (text) => Number(failedTicks.exec(text)?.[1] ?? 0) >= 1, 15_000);
    expect(metrics).toMatch(failedTicks);
    const connection = await api<{ ticks: { failed: number; last_failure: string | null } }>(daemon.url, TOKEN, '/api/connections/sheet');
    expect(connection.body.ticks).toMatchObject({ failed: expect.any(Number), last_failure: expect.stringMatching(/SQLITE_FULL/) });
    expect(connection.body.ticks.failed).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('room again: /health answers ok once a write succeeds', async () => {
    disk.free();
    const health = await poll(() => api<Health>(daemon.url, null, '/health'), (h) => h.status === 200, 15_000);
    expect([health.status, health.body.status]).toEqual([200, 'ok']);
  }, 20_000);
});

async function poll<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
