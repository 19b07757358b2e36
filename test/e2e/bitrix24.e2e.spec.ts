import * as bitrix24 from '../fixtures/crm/bitrix24';
import { FixtureHandler } from '../fixtures/crm/crm-fixture-server';
import { describePresetEndToEnd } from './crm-preset-e2e';

/**
 * Bitrix24 on the universal crm.item.* methods: webhook URL auth, `start`/`next` paging, '+03:00' portal times,
 * UF_CRM_* fields (useOriginalUfNames) named by crm.item.fields; the first crm.item.list of deals is answered 503
 * QUERY_LIMIT_EXCEEDED (retried). User 9 has neither phone nor e-mail: manager/add would refuse it, so the engine
 * rejects it. Products: crm.item.productrow.list per deal inside `batch`, their catalog sections
 * (catalog.product.get, catalog.section.get); history: crm.stagehistory.list filtered by the page's deal ids.
 */
const statuses: number[] = [];
const crm = bitrix24.createCrm({ limitExceededOnce: true });
const handler: FixtureHandler = (request, server) => {
  const answer = crm.handler(request, server);
  statuses.push(answer.status ?? 200);
  return answer;
};

describePresetEndToEnd(
  {
    preset: 'bitrix24',
    fixture: { ...bitrix24, handler },
    crm,
    refused: [{ stream: 'managers', id: '9', field: 'phone' }],
    isDealsList: (request) => /\/crm\.item\.list(\.json)?$/.test(request.path) && request.query.get('entityTypeId') === '2',
    changedSince: {
      read: (request) => request.query.get('filter[>=updatedTime]') ?? undefined,
      // the portal's own zone (Europe/Moscow, UTC+03:00 all year)
      format: (since) => `${new Date(since.getTime() + 3 * 3_600_000).toISOString().slice(0, 19)}+03:00`,
    },
  },
  () => {
    it('the 503 QUERY_LIMIT_EXCEEDED answer was retried, not fatal', () => {
      expect(statuses.filter((s) => s === 503)).toHaveLength(1);
    });
  },
);
