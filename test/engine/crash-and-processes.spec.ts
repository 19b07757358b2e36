import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { RunSummary } from '../../src/engine/engine-types';
import { resultOf, startChildSync } from '../support/child-process';
import { EngineHarness } from '../support/engine-harness';
import { FakeTrackerService } from '../support/fake-tracker-service';
import { makeDeals } from '../support/memory-connector';

const DEALS = 20_000;
/** ENGINE_CRASH_TRIALS=10 repeats the kill at other random moments (each trial ~5 s). */
const TRIALS = Number(process.env.ENGINE_CRASH_TRIALS ?? 1);

/**
 * A child process runs the sync and is killed; "the restart" is a fresh engine in this process on the
 * same database file (one child start-up instead of two keeps the test short).
 */
describe('engine: crash safety and processes sharing one database', () => {
  let service: FakeTrackerService;
  let dataDir: string;
  let restarted: EngineHarness | null = null;
  beforeEach(async () => {
    service = new FakeTrackerService();
    await service.start();
    dataDir = mkdtempSync(join(tmpdir(), 'engine-crash-'));
  });
  afterEach(async () => {
    await restarted?.stop();
    restarted = null;
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(Array.from({ length: TRIALS }, (_, i) => i + 1))('SIGKILL during a 20,000-deal sync, then a restart: every deal is in the service, cursor = source max, run interrupted (trial %i)', async () => {
    service.delayMs = 15;
    const child = startChildSync({ DATA_DIR: dataDir, BASE_URL: service.baseUrl!, DEALS: String(DEALS) });
    const killAt = 2000 + Math.floor(Math.random() * 14000);
    await child.waitFor('started', 30_000);
    while (service.orderDeliveries.length < killAt && child.proc.exitCode === null) await new Promise((r) => setTimeout(r, 2));
    child.proc.kill('SIGKILL');
    await child.exited;
    expect(service.orderDeliveries.length).toBeLessThan(DEALS);

    service.delayMs = 0;
    restarted = await new EngineHarness({ dataDir, service }).start();
    restarted.source.deals = makeDeals(DEALS);
    restarted.source.pageSize = 1000;
    expect(await restarted.sync.recoverInterruptedRuns()).toEqual([1]);
    const run = await restarted.run();
    expect(run.status).toBe('succeeded');

    expect(service.orders.size).toBe(DEALS);
    // at most the batches in flight at the kill (4 × 500) and those answered but not yet checkpointed
    // (at most as many again) are sent twice
    expect(service.orderDeliveries.length - DEALS).toBeLessThanOrEqual(2 * 4 * 500);
    expect(await restarted.cursor()).toBe(makeDeals(DEALS)[DEALS - 1].updated_at!.toISOString());
    const runs = await restarted.dataSource.query(`SELECT status FROM run ORDER BY id`);
    expect(runs.map((r: { status: string }) => r.status)).toEqual(['interrupted', 'succeeded']);
  });

  it('two processes on one database file never run the same connection together (lease)', async () => {
    service.delayMs = 10;
    const go = join(dataDir, 'go');
    const child = startChildSync({ DATA_DIR: dataDir, BASE_URL: service.baseUrl!, DEALS: '3000', BATCH_SIZE: '100', CONCURRENCY: '2', GO_FILE: go, API_KEY: 'child' });
    restarted = await new EngineHarness({ dataDir, service, batchSize: 100, concurrency: 2 }).start();
    restarted.source.deals = makeDeals(3000);
    await child.waitFor('ready', 30_000);
    writeFileSync(go, 'go');
    await new Promise((r) => setTimeout(r, Math.random() * 30));
    let local: RunSummary | { refused: string } ;
    try {
      local = await (await restarted.sync.start('demo', { mode: 'incremental', trigger: 'admin' })).done;
    } catch (e) {
      local = { refused: (e as Error).name };
    }
    expect(await child.exited).toBe(0);
    const remote = resultOf(child.output());
    const outcomes = [local, remote] as Record<string, unknown>[];
    expect(outcomes.filter((r) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(1);
    for (const r of outcomes) if (r.refused) expect(r.refused).toBe('RunInProgressError');

    const span = (own: boolean) => {
      const times = service.calls.filter((c) => (c.apiKey === 'child') === !own).map((c) => c.at);
      return times.length ? [Math.min(...times), Math.max(...times)] : null;
    };
    const [a, b] = [span(true), span(false)];
    if (a && b) expect(a[1] < b[0] || b[1] < a[0]).toBe(true);
    expect(service.orders.size).toBe(3000);
  });
});
