import { isValidCron, nextRunOf } from '../../src/scheduler/next-run';

describe('nextRunOf (the CLI answers next runs without timers)', () => {
  it('computes the next firing of a schedule', () => {
    const next = nextRunOf('*/10 * * * *', false)!;
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(next.getMinutes() % 10).toBe(0);
  });

  it('is null when paused, unscheduled or invalid', () => {
    expect(nextRunOf('*/10 * * * *', true)).toBeNull();
    expect(nextRunOf(null, false)).toBeNull();
    expect(nextRunOf('not a schedule', false)).toBeNull();
    expect(isValidCron('not a schedule')).toBe(false);
    expect(isValidCron('0 0 1 1 *')).toBe(true);
  });
});
