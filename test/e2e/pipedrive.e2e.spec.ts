import { FixtureHandler } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { describePresetEndToEnd } from './crm-preset-e2e';

/**
 * Pipedrive: `additional_data.pagination`, UTC 'YYYY-MM-DD HH:mm:ss', 40-hex custom field keys named by
 * dealFields/personFields, the first /v1/deals answered 429 with Retry-After (the burst limit). The v1 lists
 * have no changed-since filter: the preset reads them sorted by update_time and applies the window itself,
 * so the second run is proven by the engine's counters.
 */
const statuses: number[] = [];
const burstOnce = pipedrive.createHandler({ burstLimitOnce: true });
const handler: FixtureHandler = (request, server) => {
  const answer = burstOnce(request, server);
  statuses.push(answer.status ?? 200);
  return answer;
};

describePresetEndToEnd(
  {
    preset: 'pipedrive',
    fixture: { ...pipedrive, handler },
    isDealsList: (request) => request.path === '/api/v1/deals' && request.query.get('sort') === 'update_time ASC',
  },
  () => {
    it('the 429 burst-limit answer was waited out and retried', () => {
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    });
  },
);
