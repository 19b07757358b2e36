import { runFlowSchedules } from '../support/flow-schedules';

/**
 * A connection's flows keep their schedules (issue 38, item 5): sync, lead delivery and write-back all fire on the
 * same second; the connection runs one at a time, so two of the three find it busy at every tick. Each waits and
 * runs as soon as the connection is free (at most one waiting per flow), instead of losing its tick. The same run,
 * on the real one-minute schedules for ten minutes: `npm run bench:schedules` (bench/flow-schedules.ts).
 */
describe('scheduler: a connection whose sync, leads and write-back fire together', () => {
  // every 5 s (a minute in the daemon): long enough for the three runs on a loaded CI machine
  it('runs each of them on every tick window, with none piling up and no two runs at once', async () => {
    const every5s = '*/5 * * * * *';
    const report = await runFlowSchedules({ sync: every5s, leads: every5s, write_back: every5s }, 30_000, { warmupTicks: 2 });
    for (const flow of report.flows) {
      expect({ flow: flow.flow, ticks: flow.ticks }).toEqual({ flow: flow.flow, ticks: 6 });
      // every tick of every flow got its own run, within its window
      expect({ flow: flow.flow, missed: flow.missed_windows, skipped: flow.skipped }).toEqual({ flow: flow.flow, missed: 0, skipped: 0 });
      expect(flow.runs).toBeGreaterThanOrEqual(flow.ticks);
    }
    expect(report.most_waiting_per_flow).toBeLessThanOrEqual(1);
    expect(report.overlaps).toBe(0);
  }, 90_000);
});
