import * as hubspot from '../fixtures/crm/hubspot';
import { describeWriteBack } from './write-back-e2e';

/** HubSpot: deals/batch/update in batches of 100, properties by label or internal name, 100 requests per 10 s. */
describeWriteBack({
  preset: 'hubspot',
  fixture: hubspot,
  fields: { channel: 'Lead channel', utm_campaign: 'utm_campaign', city: 'City', landing_page: 'landing_page' },
  keys: { channel: 'lead_channel', utm_campaign: 'utm_campaign', city: 'lead_city', landing_page: 'landing_page' },
  dealId: (index) => String(8101 + index),
  oldVisits: ['9000001', '9000003'],
  moreDeals: 130,
  pageSize: 100,
  batchSize: 100,
  rateLimit: { requests: 100, per_seconds: 10 },
});
