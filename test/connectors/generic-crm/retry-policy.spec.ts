import { RetryPolicy } from '../../../connectors/generic-crm/http/retry-policy';

describe('generic-crm RetryPolicy: an extra rule with its own attempts and reset time', () => {
  const rule = { body_contains: '"error":"OPERATION_TIME_LIMIT"', reset_at_path: 'time.operating_reset_at', max_wait_ms: 600_000, max_attempts: 15 };

  it('matches the code in any answer (a 429, or a batch command in a 200) and takes its own attempts', () => {
    const policy = new RetryPolicy({ extra: [rule] });
    expect(policy.ruleFor(429, '{"error":"OPERATION_TIME_LIMIT"}')).toBe(rule);
    expect(policy.ruleFor(200, '{"result":{"result_error":{"d1":{"error":"OPERATION_TIME_LIMIT"}}}}')).toBe(rule);
    expect(policy.attemptsFor(rule)).toBe(15);
  });

  it('a requester allowed one attempt (a create) keeps to one', () => {
    expect(new RetryPolicy({ max_attempts: 1, extra: [rule] }).attemptsFor(rule)).toBe(1);
  });

  it('waits until the reset time, at most max_wait_ms; without one, backs off', () => {
    const policy = new RetryPolicy({ base_ms: 100, extra: [rule] });
    const inTwoMinutes = Math.ceil(Date.now() / 1000) + 120;
    expect(policy.delayMs(1, undefined, { at: inTwoMinutes, rule })).toBeGreaterThan(118_000);
    expect(policy.delayMs(1, undefined, { at: inTwoMinutes + 3600, rule })).toBe(600_000);
    expect(policy.delayMs(3, undefined, { at: undefined, rule })).toBe(400);
  });
});
