import type { OutboundFlowDescription } from '../../../../runs/outbound-flows';

/** Manager tasks in words: its name, its counters with what each means, its /metrics series. */
export const managerTasksDescription = {
  name: 'manager_tasks',
  title: 'manager tasks',
  about: "A CRM task for the responsible manager of each deal the service has had for `settings.manager_tasks.days` days without a visit (its ad source unknown), asking how the client found us; one task per deal ever, looked up in the CRM before it is made.",
  counters: {
    due: "the connection's deals the service has had for manager_tasks.days days or more without a visit",
    created: 'deals whose manager got a task in the CRM this run',
    already_created: 'deals whose task was made earlier (stored, or found in the CRM): nothing sent',
    rejected: 'deals whose task the CRM refused (each a rejected record with its reason)',
  },
  metric: { name: 'tracker_sync_manager_tasks_total', help: 'Deals of manager-task runs by connection and outcome (due, created, already_created, rejected)' },
} as const satisfies OutboundFlowDescription;
