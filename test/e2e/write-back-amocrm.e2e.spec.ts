import * as amocrm from '../fixtures/crm/amocrm';
import { describeWriteBack } from './write-back-e2e';

/** amoCRM: PATCH /api/v4/leads in batches of 50, fields named by name (any case) or by id, 7 requests/s. */
describeWriteBack({
  preset: 'amocrm',
  fixture: amocrm,
  fields: { channel: 'Источник', utm_campaign: 'UTM campaign', landing_page: 583921, city: 'город' },
  keys: { channel: '402', utm_campaign: '404', landing_page: '583921', city: '406' },
  dealId: (index) => String(7101 + index),
  oldVisits: ['123456789', '987'],
  moreDeals: 70,
  pageSize: 250,
  batchSize: 50,
  refusal: /Entity not found/,
  rateLimit: { requests: 7, per_seconds: 1 },
});
