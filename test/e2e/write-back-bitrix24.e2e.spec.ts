import * as bitrix24 from '../fixtures/crm/bitrix24';
import { describeWriteBack } from './write-back-e2e';

/** Bitrix24: `batch` of up to 50 crm.item.update commands (deals, entityTypeId 2), UF_CRM_* fields by label or code, 2 requests/s. */
describeWriteBack({
  preset: 'bitrix24',
  fixture: bitrix24,
  fields: { channel: 'Канал', utm_source: 'UF_CRM_1700000102', utm_campaign: 'UTM Campaign', city: 'Город', landing_page: 'Посадочная страница' },
  keys: { channel: 'UF_CRM_1700000101', utm_source: 'UF_CRM_1700000102', utm_campaign: 'UF_CRM_1700000103', city: 'UF_CRM_1700000104', landing_page: 'UF_CRM_1700000105' },
  dealId: (index) => String(1201 + index),
  oldVisits: ['555001', '555003'],
  moreDeals: 70,
  pageSize: 50,
  batchSize: 50,
  refusal: /Element not found/,
  rateLimit: { requests: 2, per_seconds: 1 },
});
