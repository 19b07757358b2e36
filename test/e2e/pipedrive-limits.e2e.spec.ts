import { startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { E2eSync } from './e2e-harness';
import { allOrders } from './sandbox-readback';

/**
 * A Pipedrive company whose daily token budget runs out, tried as a user writes the connection (preset, base_url,
 * token, status_map: the preset's own limits and retries). Pipedrive answers every request 429 once the budget is
 * spent, a burst 429 with the same body: only `x-daily-ratelimit-token-remaining` (0) tells them apart
 * (test/fixtures/crm/specs/pipedrive/BEHAVIOURS.md, "Limits").
 */
describe('e2e: Pipedrive daily token budget and burst limit → engine → sandbox', () => {
  const asUserWrites = (url: string) => {
    const { rate_limit: _lifted, retry: _fast, ...settings } = pipedrive.settings(url);
    return settings;
  };

  it('a company whose budget is spent mid-run: the run fails at once, saying so, after one 429', async () => {
    const crm = pipedrive.createCrm({ dailyLimit: 5 });
    const server = await startCrmServer(crm.handler);
    const e2e = await E2eSync.start({ connectionId: 'pipedrive-daily', connector: 'generic-crm', settings: asUserWrites(server.url) });
    try {
      const started = Date.now();
      const run = await e2e.run();
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/the CRM's daily request limit is spent: the run stops without retrying; it can go again once the CRM resets the limit \(at midnight in Pipedrive's server time zone/);
      expect(crm.limits).toEqual({ burstLimited: 0, dailyLimited: 1 });
      expect(server.requests).toHaveLength(6);
      // the preset's retries would wait Retry-After (1 s here) four times before giving up
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await e2e.stop();
      await server.close();
    }
  });

  it('a burst 429 (tokens left) is waited out and retried: the run succeeds with every deal', async () => {
    const crm = pipedrive.createCrm({ burstLimitOnce: true });
    const server = await startCrmServer(crm.handler);
    const e2e = await E2eSync.start({ connectionId: 'pipedrive-burst', connector: 'generic-crm', settings: asUserWrites(server.url) });
    try {
      await e2e.registerVisits(pipedrive.expected.deals.map((d) => d.visit_id).filter((v): v is string => !!v));
      const run = await e2e.run();
      expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
      expect(crm.limits).toEqual({ burstLimited: 1, dailyLimited: 0 });
      expect((await allOrders(e2e.tracker)).map((o) => o.id).sort()).toEqual(pipedrive.expected.deals.map((d) => d.id).sort());
    } finally {
      await e2e.stop();
      await server.close();
    }
  });
});
