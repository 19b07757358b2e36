import { parseResetAtMs } from '../../src/http/retry-policy';

describe('parseResetAtMs: a reset time named in an answer body (Unix seconds)', () => {
  const now = Date.parse('2026-05-14T10:26:33Z');
  const inSeconds = (s: number) => now / 1000 + s;

  it('waits until it, a number or its text', () => {
    expect(parseResetAtMs(inSeconds(90), Infinity, now)).toBe(90_000);
    expect(parseResetAtMs(String(inSeconds(2)), Infinity, now)).toBe(2_000);
  });

  it('never longer than the cap', () => {
    expect(parseResetAtMs(inSeconds(3600), 600_000, now)).toBe(600_000);
  });

  it('null when absent, unreadable or past: the caller backs off instead', () => {
    expect(parseResetAtMs(undefined, Infinity, now)).toBeNull();
    expect(parseResetAtMs('soon', Infinity, now)).toBeNull();
    expect(parseResetAtMs(inSeconds(-5), Infinity, now)).toBeNull();
  });
});
