import * as amocrm from '../fixtures/crm/amocrm';
import { COMMENT_TEMPLATE, describeLeads } from './leads-e2e';

/** amoCRM v4: POST /api/v4/leads with the contact in _embedded, contacts by field_code, notes, `query` look-ups. */
describeLeads({
  preset: 'amocrm',
  fixture: amocrm,
  leadDelivery: {
    pipeline: 'Продажи', stage: 'Первичный контакт', responsible: 502, lead_id_field: 'ID заявки',
    title: '{{title}}: {{name}}', fields: { 'Комментарий': COMMENT_TEMPLATE },
  },
  expect: { pipeline: '3001', stage: '55501', owner: '502', leadIdKey: '407', visitKey: '401', commentKey: '408' },
});
