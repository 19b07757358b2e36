import * as pipedrive from '../fixtures/crm/pipedrive';
import { describeManagerTasks } from './manager-tasks-e2e';

/** Pipedrive v2: GET /v2/deals/{id}, GET /v2/activities?deal_id (cursor pages of 500), POST /v2/activities. */
describeManagerTasks({ preset: 'pipedrive', fixture: pipedrive, dealId: (i) => String(1101 + i), owner: '11', pageSize: 500 });
