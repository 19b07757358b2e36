import * as pipedrive from '../fixtures/crm/pipedrive';
import { COMMENT_TEMPLATE, describeLeads } from './leads-e2e';

const LEAD_ID = 'aaaa0000bbbb1111cccc2222dddd3333eeee4444';
const COMMENT = 'bbbb0000cccc1111dddd2222eeee3333ffff5555';

/** Pipedrive v2: pipelines/stages by name, persons/search by phone then e-mail, POST /v2/deals, POST /v1/notes. */
describeLeads({
  preset: 'pipedrive',
  fixture: pipedrive,
  leadDelivery: {
    pipeline: 'Продажи', stage: 'Первичный контакт', responsible: 'Дмитрий Орлов', lead_id_field: 'ID заявки',
    title: '{{title}}: {{name}}', fields: { 'Комментарий': COMMENT_TEMPLATE }, duplicates: 'attach', duplicate_days: 30,
  },
  expect: { pipeline: '2', stage: '6', owner: '12', leadIdKey: LEAD_ID, visitKey: pipedrive.FIELD_KEYS.tracker, commentKey: COMMENT },
});
