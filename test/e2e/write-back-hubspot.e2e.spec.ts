import * as hubspot from '../fixtures/crm/hubspot';
import { describeWriteBack } from './write-back-e2e';

/**
 * HubSpot: deals/batch/update (up to 100 a request), properties by label or internal name, 100 requests per
 * 10 s. Fewer than 100 deals: more would take a second order-list page, whose tier spaces passes 12 s apart
 * (splitting into batches is shown by the amoCRM and Bitrix24 cases).
 */
describeWriteBack({
  preset: 'hubspot',
  fixture: hubspot,
  fields: { channel: 'Lead channel', utm_campaign: 'utm_campaign', city: 'City', landing_page: 'landing_page' },
  keys: { channel: 'lead_channel', utm_campaign: 'utm_campaign', city: 'lead_city', landing_page: 'landing_page' },
  dealId: (index) => String(8101 + index),
  oldVisits: ['9000001', '9000003'],
  moreDeals: 60,
  pageSize: 100,
  batchSize: 100,
  refusal: /Could not get some DEAL objects/,
  rateLimit: { requests: 100, per_seconds: 10 },
});
