import * as bitrix24 from '../fixtures/crm/bitrix24';
import { describeManagerTasks } from './manager-tasks-e2e';

/** Bitrix24: crm.deal.get, tasks.task.list by UF_CRM_TASK (pages of 50), tasks.task.add. */
describeManagerTasks({ preset: 'bitrix24', fixture: bitrix24, dealId: (i) => String(1201 + i), owner: '1', pageSize: 50 });
