import { FixtureHandler } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { describePresetEndToEnd } from './crm-preset-e2e';

/**
 * Pipedrive on API v2 (users on v1): cursor paging, RFC 3339 UTC times, integer person_id / owner_id, custom
 * fields in `custom_fields` named by /v2/dealFields and /v2/personFields, organizations by ids, the first
 * /v2/deals answered 429 with Retry-After (the burst limit). The second run asks only for deals updated since
 * the cursor minus the overlap (`updated_since`). Every request and answer is held to Pipedrive's OpenAPI documents.
 * Products: /v2/deals/products by the page's deal ids, the catalog by ids (/v2/products, /v2/productFields);
 * history: each deal's /v1/deals/{id}/flow (changes only).
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
  () => {
    it('the 429 burst-limit answer was waited out and retried', () => {
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    });
  },
);
