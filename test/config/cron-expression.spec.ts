import { cronProblem, scheduledSlot } from '../../src/config/cron-expression';

const at = (iso: string) => new Date(iso);
const slot = (schedule: string | null, now: string) => scheduledSlot(schedule, at(now))?.toISOString() ?? null;

describe('scheduledSlot (the tick a scheduled run claims)', () => {
  it('is the latest fire time at or just before now, in UTC as the jobs run', () => {
    expect(slot('*/10 * * * *', '2025-07-15T10:03:07.000Z')).toBe('2025-07-15T10:00:00.000Z');
    expect(slot('0 9 * * *', '2025-07-15T08:59:59.000Z')).toBe('2025-07-14T09:00:00.000Z');
    expect(slot('0 0 1 1 *', '2025-07-15T10:03:07.000Z')).toBe('2025-01-01T00:00:00.000Z');
    expect(slot('0 0 29 2 *', '2025-07-15T10:03:07.000Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(slot('*/15 * * * * *', '2025-07-15T10:03:07.500Z')).toBe('2025-07-15T10:03:00.000Z');
  });

  it('counts a timer firing a little early as that tick (a 250 ms margin)', () => {
    expect(slot('*/10 * * * *', '2025-07-15T10:09:59.800Z')).toBe('2025-07-15T10:10:00.000Z');
    expect(slot('*/10 * * * *', '2025-07-15T10:09:59.700Z')).toBe('2025-07-15T10:00:00.000Z');
    expect(slot('*/10 * * * *', '2025-07-15T10:10:00.000Z')).toBe('2025-07-15T10:10:00.000Z');
  });

  it('is null without a usable schedule', () => {
    expect(slot(null, '2025-07-15T10:03:07.000Z')).toBeNull();
    expect(slot('not a schedule', '2025-07-15T10:03:07.000Z')).toBeNull();
    expect(slot('0 0 31 2 *', '2025-07-15T10:03:07.000Z')).toBeNull();
  });
});

describe('cronProblem', () => {
  it('accepts what the scheduler runs, names and steps included', () => {
    for (const ok of ['*/5 * * * *', '0 */5 * * * *', '15,45 8-18 * JUL MON-FRI', '0 0 30 2,4 *']) expect(cronProblem(ok)).toBeUndefined();
  });

  it('says which range a value breaks, and that a schedule never fires', () => {
    expect(cronProblem('0 25 * * *')).toMatch(/out of range \(.*hour 0-23/);
    expect(cronProblem('0 0 30 2 *')).toMatch(/^never fires/);
    expect(cronProblem('0 0 * * 1#2')).toMatch(/scheduler does not support/);
  });
});
