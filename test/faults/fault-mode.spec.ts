import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { writeDealsCsv } from './support/deals-csv';
import { EngineUnderTest, InProcessSandbox } from './support/sheet-sync';
import { querySqlite } from './support/sqlite-file';

const DEALS = 3_000;
const CLIENT_TIMEOUT_MS = 2_000;

/**
 * Issue 7, fault suite: the sandbox answers 20 % of requests with 429, 500, an answer later than the
 * client's timeout (2 s), or a dropped connection. A spreadsheet sync of a few thousand deals completes and
 * every deal is in the service exactly once. The check reads the sandbox's own SQLite file (no faults on
 * that path), and the order list API through a client with many retries.
 */
describe('fault suite: the sandbox in fault mode (20 %)', () => {
  let dir: string;
  let sandbox: InProcessSandbox;
  let engine: EngineUnderTest;
  let project: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fault-mode-'));
    sandbox = await InProcessSandbox.start({ db: join(dir, 'sandbox.sqlite'), faults: 0.2, clientTimeoutMs: CLIENT_TIMEOUT_MS });
    project = await sandbox.project('faults');
  });

  afterAll(async () => {
    await engine?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the sync completes and every deal is in the service exactly once', async () => {
    const csv = writeDealsCsv(join(dir, 'deals.csv'), DEALS);
    engine = await EngineUnderTest.start(sandbox, project, [{ id: 'sheet', connector: 'spreadsheet', settings: { deals: { path: csv.path } } }], {
      batchSize: 50, timeoutMs: CLIENT_TIMEOUT_MS, retries: 8,
    });
    const run = await engine.run('sheet');
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.streams.deals).toMatchObject({ read: DEALS, sent: DEALS, rejected: 0 });
    // the faults really happened and were retried (60 batches: P(no fault at all) = 0.8^60, about 1e-6)
    const failed = engine.attempts.filter((a) => a.status === 'network' || a.status >= 429);
    expect(failed.length).toBeGreaterThan(0);

    const stored = await querySqlite<{ id: string; copies: number }>(join(dir, 'sandbox.sqlite'),
      'SELECT id, COUNT(*) AS copies FROM sb_order WHERE project_id = ? GROUP BY id ORDER BY id', [Number(project)]);
    expect(stored.map((o) => o.id)).toEqual(csv.ids);
    expect(stored.every((o) => o.copies === 1)).toBe(true);

    const listed = await sandbox.orderIds(project);
    expect(listed.length).toBe(DEALS);
    expect(new Set(listed).size).toBe(DEALS);
  }, 90_000);
});
