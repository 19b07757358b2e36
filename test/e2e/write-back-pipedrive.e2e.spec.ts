import * as pipedrive from '../fixtures/crm/pipedrive';
import { describeWriteBack } from './write-back-e2e';

const { FIELD_KEYS } = pipedrive;

/** Pipedrive: PATCH /api/v2/deals/{id} one deal a request (`custom_fields`), 40-hex field keys by name or key, 20 requests per 2 s. */
describeWriteBack({
  preset: 'pipedrive',
  fixture: pipedrive,
  fields: { channel: 'Lead source', utm_campaign: 'UTM campaign', city: FIELD_KEYS.city, landing_page: 'landing page' },
  keys: { channel: FIELD_KEYS.leadSource, utm_campaign: FIELD_KEYS.utmCampaign, city: FIELD_KEYS.city, landing_page: FIELD_KEYS.landingPage },
  dealId: (index) => String(1101 + index),
  oldVisits: ['777001', '777003'],
  moreDeals: 15,
  pageSize: 500,
  batchSize: 1,
  refusal: /Deal not found/,
  rateLimit: { requests: 20, per_seconds: 2 },
});
