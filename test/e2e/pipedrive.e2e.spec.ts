import { FixtureHandler } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { describePresetEndToEnd } from './crm-preset-e2e';
import { readServiceContents } from './sandbox-readback';

/**
 * Pipedrive on API v2 (users on v1): cursor paging, RFC 3339 UTC times, integer person_id / owner_id, custom
 * fields in `custom_fields` named by /v2/dealFields and /v2/personFields, organizations by ids, the first
 * /v2/deals answered 429 with Retry-After (the burst limit). The second run asks only for deals updated since
 * the cursor minus the overlap (`updated_since`). Every request and answer is held to Pipedrive's OpenAPI documents.
 * Products: /v2/deals/products by the page's deal ids, the catalog by ids (/v2/products, /v2/productFields);
 * history: each deal's /v1/deals/{id}/flow (changes only). Archived deals (GET /v2/deals leaves them out since
 * 2025-07-15): read from GET /v2/deals/archived, the one archived before the first sync and one archived later.
 */
const statuses: number[] = [];
const crm = pipedrive.createCrm({ burstLimitOnce: true });
const handler: FixtureHandler = (request, server) => {
  const answer = crm.handler(request, server);
  statuses.push(answer.status ?? 200);
  return answer;
};

describePresetEndToEnd(
  {
    preset: 'pipedrive',
    fixture: { ...pipedrive, handler },
    crm,
    isDealsList: (request) => request.path === '/api/v2/deals' && request.query.get('sort_by') === 'update_time',
    changedSince: {
      read: (request) => request.query.get('updated_since') ?? undefined,
      format: (since) => since.toISOString().replace(/\.000Z$/, 'Z'),
    },
  },
  (ctx) => {
    it('the 429 burst-limit answer was waited out and retried', () => {
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    });

    it('the deal archived before the first sync (GET /v2/deals leaves it out) is in the service, won', async () => {
      const orders = (await readServiceContents(ctx().e2e.tracker)).orders;
      expect(orders.map((o) => o.id).sort()).toEqual(pipedrive.expected.deals.map((d) => d.id).sort());
      expect(orders.find((o) => o.id === '1004')?.status.id).toBe('1');
    });

    it('a deal lost and archived after a sync reaches the service in its last state (not frozen as it was)', async () => {
      crm.archiveDeal('1001', 'lost');
      const run = await ctx().e2e.run();
      expect({ status: run.status, error: run.error, sent: run.streams.deals?.sent }).toEqual({ status: 'succeeded', error: null, sent: 1 });
      const orders = (await readServiceContents(ctx().e2e.tracker)).orders;
      expect(orders.find((o) => o.id === '1001')?.status.id).toBe('2');
    });
  },
);
