import * as amocrm from '../fixtures/crm/amocrm';
import { describeManagerTasks } from './manager-tasks-e2e';

/** amoCRM v4: GET /api/v4/leads/{id}, GET /api/v4/tasks (pages of 250), POST /api/v4/tasks. */
describeManagerTasks({ preset: 'amocrm', fixture: amocrm, dealId: (i) => String(7101 + i), owner: '501', pageSize: 250 });
