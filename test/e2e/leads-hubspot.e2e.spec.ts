import * as hubspot from '../fixtures/crm/hubspot';
import { COMMENT_TEMPLATE, describeLeads } from './leads-e2e';

/** HubSpot: deals, contacts and notes as objects with inline associations, look-ups through search, pipelines v3. */
describeLeads({
  preset: 'hubspot',
  fixture: hubspot,
  leadDelivery: {
    pipeline: 'Продажи', stage: 'Первичный контакт', responsible: 'Kate Wilson', lead_id_field: 'ID заявки',
    title: '{{title}}: {{name}}', fields: { 'Комментарий': COMMENT_TEMPLATE },
  },
  expect: { pipeline: '7755001', stage: '7755101', owner: '41', leadIdKey: 'lead_id', visitKey: 'tracker', commentKey: 'lead_comment' },
});
