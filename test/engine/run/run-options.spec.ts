import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseSince } from '../../../src/engine/run/run-options';

describe('a run\'s since', () => {
  it('a day starts at 00:00 of the service\'s day (UTC+03:00): a run since the 12th reads its Moscow night', () => {
    expect(parseSince('2025-03-12').toISOString()).toBe('2025-03-11T21:00:00.000Z');
  });

  it('a date-time without an offset is the service\'s time; one with an offset is taken as it is', () => {
    expect(parseSince('2025-09-01T10:00:00').toISOString()).toBe('2025-09-01T07:00:00.000Z');
    expect(parseSince('2025-09-01T10:00').toISOString()).toBe('2025-09-01T07:00:00.000Z');
    expect(parseSince('2025-09-01T10:00:00Z').toISOString()).toBe('2025-09-01T10:00:00.000Z');
    expect(parseSince('2025-09-01T10:00:00+05:00').toISOString()).toBe('2025-09-01T05:00:00.000Z');
  });

  it('never depends on the zone of the machine the daemon runs on', () => {
    const script = `require('ts-node/register/transpile-only'); const { parseSince } = require(${JSON.stringify(join(__dirname, '../../../src/engine/run/run-options.ts'))}); process.stdout.write([parseSince('2025-03-12'), parseSince('2025-09-01T10:00:00')].map((d) => d.toISOString()).join(' '));`;
    for (const zone of ['Asia/Yekaterinburg', 'America/New_York', 'UTC']) {
      expect(execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: zone } }).toString()).toBe('2025-03-11T21:00:00.000Z 2025-09-01T07:00:00.000Z');
    }
  });

  it.each(['2025-02-30', '2025-13-01', 'yesterday', '2025-09-01T25:00:00', '12.03.2025'])('%s is refused, saying what is expected', (value) => {
    expect(() => parseSince(value)).toThrow(/is not a date YYYY-MM-DD or an ISO date-time/);
  });
});
