import connector from '../../../connectors/generic-crm';
import { startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../../fixtures/crm/pipedrive';
import { readAll } from '../read-helper';

/**
 * Pipedrive's two limits, held by the preset (test/fixtures/crm/specs/pipedrive/BEHAVIOURS.md, "Limits"): the daily
 * token budget's 429 (`x-daily-ratelimit-token-remaining: 0`) fails the read at once; the burst limit's 429 (the
 * same body, tokens left) is retried after its reset header.
 */
describe('generic-crm preset pipedrive: the daily token budget and the burst limit', () => {
  it('a 429 of the spent daily token budget fails the read at once, saying so, without retrying', async () => {
    const crm = pipedrive.createCrm({ dailyLimit: 0 });
    const server = await startCrmServer(crm.handler);
    try {
      const started = Date.now();
      await expect(readAll(connector, 'deals', pipedrive.settings(server.url))).rejects.toThrow(
        /GET http.*\/api\/v2\/dealFields.*the CRM's daily request limit is spent: the run stops without retrying; it can go again once the CRM resets the limit \(at midnight in Pipedrive's server time zone, which may not be the account's\) \(HTTP 429: .*Request over limit/,
      );
      expect(server.requests).toHaveLength(1);
      expect(crm.limits).toEqual({ burstLimited: 0, dailyLimited: 1 });
      // the retries would wait Retry-After (1 s) four times; the one request above says there was none
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await server.close();
    }
  });

  it('the budget spent in the middle of a read: the read stops at the first 429, after the pages it had', async () => {
    const crm = pipedrive.createCrm({ dailyLimit: 3 });
    const server = await startCrmServer(crm.handler);
    try {
      await expect(readAll(connector, 'deals', pipedrive.settings(server.url))).rejects.toThrow(/the CRM's daily request limit is spent/);
      expect(server.requests).toHaveLength(4);
      expect(crm.limits.dailyLimited).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a burst 429 (tokens left) is still retried after its reset header, and the read goes on', async () => {
    const crm = pipedrive.createCrm({ burstLimitOnce: true });
    const server = await startCrmServer(crm.handler);
    try {
      const { records } = await readAll(connector, 'deals', pipedrive.settings(server.url));
      expect(records).toEqual(pipedrive.expected.deals);
      expect(crm.limits).toEqual({ burstLimited: 1, dailyLimited: 0 });
    } finally {
      await server.close();
    }
  });

  it('a burst 429 without Retry-After waits for x-ratelimit-reset (1 s), not the 5 ms backoff', async () => {
    const crm = pipedrive.createCrm({ burstLimitOnce: true, burstWithoutRetryAfter: true });
    const server = await startCrmServer(crm.handler);
    try {
      const { records } = await readAll(connector, 'deals', pipedrive.settings(server.url));
      expect(records).toEqual(pipedrive.expected.deals);
      const lists = server.requests.filter((r) => r.path === '/api/v2/deals');
      expect(lists[1].at - lists[0].at).toBeGreaterThanOrEqual(950);
      expect(crm.limits.burstLimited).toBe(1);
    } finally {
      await server.close();
    }
  });
});
