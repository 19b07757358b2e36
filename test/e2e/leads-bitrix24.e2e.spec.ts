import * as bitrix24 from '../fixtures/crm/bitrix24';
import { COMMENT_TEMPLATE, describeLeads } from './leads-e2e';

/** Bitrix24: crm.item.add (deals and contacts), crm.duplicate.findbycomm, crm.item.list filters, timeline comments. */
describeLeads({
  preset: 'bitrix24',
  fixture: bitrix24,
  leadDelivery: {
    pipeline: 'Повторные', stage: 'Новая', responsible: 'Пётр', lead_id_field: 'ID заявки',
    title: '{{title}}: {{name}}', fields: { 'Комментарий': COMMENT_TEMPLATE },
  },
  expect: { pipeline: '1', stage: 'C1:NEW', owner: '7', leadIdKey: 'UF_CRM_1700000106', visitKey: 'UF_CRM_1700000100', commentKey: 'UF_CRM_1700000107' },
});
