import * as amocrm from '../fixtures/crm/amocrm';
import { describePresetEndToEnd } from './crm-preset-e2e';

/**
 * amoCRM: unix-second dates, `_embedded` contact references fetched in full, `filter[updated_at][from]`; products
 * from `with=catalog_elements` and the products list's elements and groups; history from the events API.
 */
const crm = amocrm.createCrm();

describePresetEndToEnd({
  preset: 'amocrm',
  fixture: { ...amocrm, handler: crm.handler },
  crm,
  isDealsList: (request) => request.path === '/api/v4/leads',
  changedSince: {
    read: (request) => request.query.get('filter[updated_at][from]') ?? undefined,
    format: (since) => String(Math.floor(since.getTime() / 1000)),
  },
});
