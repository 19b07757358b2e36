import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

describe('engine: store write errors', () => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('a checkpoint that cannot be written fails the run with a clear error; the engine stays usable', async () => {
    h = await new EngineHarness({ batchSize: 5 }).start();
    h.source.deals = makeDeals(10);
    await h.dataSource.query(`CREATE TRIGGER simulated_full BEFORE INSERT ON record_state BEGIN SELECT RAISE(FAIL, 'disk full (simulated)'); END`);
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/stream deals: checkpoint failed: .*disk full \(simulated\)/);
    expect(await h.cursor()).toBeNull();
    expect(h.sync.isRunning(h.connectionId)).toBe(false);

    await h.dataSource.query('DROP TRIGGER simulated_full');
    const next = await h.run();
    expect(next.status).toBe('succeeded');
    expect(await h.cursor()).toBe('2025-03-10T09:00:09.000Z');
  });

  it('a record-state lookup that fails names the store', async () => {
    h = await new EngineHarness().start();
    h.source.deals = makeDeals(3);
    h.source.managers = [{ id: 'm1', name: 'Anna', email: 'a@example.com' }];
    await h.dataSource.query('ALTER TABLE record_state RENAME TO record_state_gone');
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/stream managers: the store could not read record states: .*no such table: record_state/);
  });
});
