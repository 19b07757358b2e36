/**
 * GET /api/connections/:id/resync-estimate (what the status page's Resync confirmation says), in the real
 * daemon: requests from the most records a recent run read, in the connection's own batch size, against the
 * service's 5,000 an hour.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';

const TOKEN = 'estimate-test-token';

describe('resync estimate', () => {
  const dir = tempDir('resync-estimate');
  let running: RunningDaemon;

  beforeAll(async () => {
    const demo = join(__dirname, '..', '..', 'config', 'demo');
    const sheet = (id: string, runOnStart: boolean, batchSize: number) => [
      `  - id: ${id}`,
      '    connector: spreadsheet',
      `    run_on_start: ${runOnStart}`,
      `    sync: { batch_size: ${batchSize} }`,
      '    settings:',
      `      deals: { path: ${JSON.stringify(join(demo, 'deals.csv'))} }`,
      `      clients: { path: ${JSON.stringify(join(demo, 'clients.csv'))} }`,
      `      managers: { path: ${JSON.stringify(join(demo, 'managers.csv'))} }`,
    ];
    const config = join(dir.path, 'tracker-sync.yaml');
    writeFileSync(config, [
      `data_dir: ${JSON.stringify(join(dir.path, 'data'))}`,
      'tracker: { rate_limit: off }',
      'sandbox: { budget: off }',
      'connections:',
      ...sheet('small-batches', true, 100),
      ...sheet('never-run', false, 500),
      '',
    ].join('\n'));
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'error' }, config);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  it("counts requests per stream in the connection's batch size, against the service's hourly budget", async () => {
    const run = await waitForFinishedRun(running.url, TOKEN, 'small-batches');
    const { status, body } = await api(running.url, TOKEN, '/api/connections/small-batches/resync-estimate');
    expect(status).toBe(200);
    const deals = Math.ceil(run.streams.deals.read / 100);
    const clients = Math.ceil(run.streams.clients.read / 100);
    expect(body).toEqual({
      connection_id: 'small-batches',
      runs_looked_at: 1,
      batch_size: 100,
      streams: {
        deals: { records: run.streams.deals.read, requests: deals },
        clients: { records: 300, requests: clients },
        managers: { records: 10, requests: 10 }, // one request per manager
      },
      requests: deals + clients + 10,
      service_per_hour: 5000,
      service_share_percent: Math.round((1000 * (deals + clients + 10)) / 5000) / 10,
      daemon_per_hour: null, // rate_limit: off
    });
  });

  it('says there is nothing to estimate from before the first run, and 404 for an unknown connection', async () => {
    const never = await api<{ runs_looked_at: number; requests: number; streams: object }>(running.url, TOKEN, '/api/connections/never-run/resync-estimate');
    expect(never.status).toBe(200);
    expect(never.body).toMatchObject({ runs_looked_at: 0, requests: 0, streams: {} });
    const unknown = await api<{ message: string }>(running.url, TOKEN, '/api/connections/nope/resync-estimate');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('"nope"');
    expect((await api(running.url, null, '/api/connections/small-batches/resync-estimate')).status).toBe(401);
  });
});
