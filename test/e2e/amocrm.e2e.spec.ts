import * as amocrm from '../fixtures/crm/amocrm';
import { describePresetEndToEnd } from './crm-preset-e2e';

/** amoCRM: unix-second dates, `_embedded` contact references fetched in full, `filter[updated_at][from]`. */
describePresetEndToEnd({
  preset: 'amocrm',
  fixture: amocrm,
  isDealsList: (request) => request.path === '/api/v4/leads',
  changedSince: {
    read: (request) => request.query.get('filter[updated_at][from]') ?? undefined,
    format: (since) => String(Math.floor(since.getTime() / 1000)),
  },
});
