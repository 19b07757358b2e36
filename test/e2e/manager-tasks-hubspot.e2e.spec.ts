import * as hubspot from '../fixtures/crm/hubspot';
import { describeManagerTasks } from './manager-tasks-e2e';

/** HubSpot: the deal's owner, its tasks by association (v4, pages of 500), batch read, POST /crm/v3/objects/tasks. */
describeManagerTasks({ preset: 'hubspot', fixture: hubspot, dealId: (i) => String(8101 + i), owner: '41', pageSize: 500 });
