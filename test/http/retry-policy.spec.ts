import { dailyQuotaMark, DailyQuotaMark, isDailyQuotaSpent, parseResetAtMs } from '../../src/http/retry-policy';

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

describe('dailyQuotaMark: an answer that says the daily quota is spent', () => {
  const pipedrive: DailyQuotaMark = { status: 429, header: 'x-daily-ratelimit-token-remaining', equals: '0' };
  const hubspot: DailyQuotaMark = { path: 'policyName', equals: 'DAILY' };
  const marks = [pipedrive, hubspot];
  const overLimit = '{"success":false,"error":"Request over limit","errorCode":429}';

  it('a header of the given value, in any case (Pipedrive: tokens left 0)', () => {
    expect(dailyQuotaMark({ status: 429, headers: { 'X-Daily-Ratelimit-Token-Remaining': '0' }, body: overLimit }, marks)).toBe(pipedrive);
    expect(dailyQuotaMark({ status: 429, headers: { 'x-daily-ratelimit-token-remaining': '29870' }, body: overLimit }, marks)).toBeUndefined();
    expect(dailyQuotaMark({ status: 429, headers: {}, body: overLimit }, marks)).toBeUndefined();
  });

  it('a value at a path of the JSON body (HubSpot: policyName DAILY, not SECONDLY); an unreadable body marks nothing', () => {
    expect(dailyQuotaMark({ status: 429, body: '{"policyName":"DAILY"}' }, marks)).toBe(hubspot);
    expect(dailyQuotaMark({ status: 429, body: '{"policyName":"SECONDLY"}' }, marks)).toBeUndefined();
    expect(dailyQuotaMark({ status: 429, body: '<html>' }, marks)).toBeUndefined();
    expect(dailyQuotaMark({ status: 429, body: '{"limits":{"daily":{"left":0}}}' }, [{ path: 'limits.daily.left', equals: 0 }])).toBeDefined();
  });

  it('only on its status (default 429); a text in the body; a mark naming no sign marks nothing', () => {
    expect(dailyQuotaMark({ status: 200, headers: { 'x-daily-ratelimit-token-remaining': '0' }, body: '{}' }, marks)).toBeUndefined();
    expect(dailyQuotaMark({ status: 403, body: 'daily limit reached' }, [{ status: 403, body_contains: 'daily limit' }])).toBeDefined();
    expect(dailyQuotaMark({ status: 429, body: 'x' }, [{}])).toBeUndefined();
  });

  it('isDailyQuotaSpent, kept for plugins, is HubSpot\'s mark', () => {
    expect(isDailyQuotaSpent(429, '{"policyName":"DAILY"}')).toBe(true);
    expect(isDailyQuotaSpent(429, '{"policyName":"TEN_SECONDLY_ROLLING"}')).toBe(false);
  });
});
