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

describe('generic-crm RetryPolicy: the waits an answer\'s headers name', () => {
  it('Retry-After, else backoff; a reset_header (seconds) too, the longer of the two (Pipedrive\'s x-ratelimit-reset)', () => {
    const plain = new RetryPolicy({ base_ms: 5 });
    expect(plain.delayMs(1, { 'retry-after': '2' })).toBe(2000);
    expect(plain.delayMs(1, { 'x-ratelimit-reset': '10' })).toBe(5);
    const pipedrive = new RetryPolicy({ base_ms: 5, reset_header: 'X-RateLimit-Reset' });
    expect(pipedrive.delayMs(1, { 'x-ratelimit-reset': '10' })).toBe(10_000);
    expect(pipedrive.delayMs(1, { 'x-ratelimit-reset': '10', 'retry-after': '2' })).toBe(10_000);
    expect(pipedrive.delayMs(1, { 'x-ratelimit-reset': '1', 'retry-after': '2' })).toBe(2000);
    expect(pipedrive.delayMs(2, {})).toBe(10);
  });

  it('never longer than max_ms', () => {
    expect(new RetryPolicy({ max_ms: 30_000, reset_header: 'x-ratelimit-reset' }).delayMs(1, { 'x-ratelimit-reset': '3600' })).toBe(30_000);
  });
});
