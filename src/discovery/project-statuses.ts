import type { OrderStatusDefinition } from '../tracker/types/orders.types';

/** The project's status for each group a CRM stage falls into: what a proposed status_map maps to. */
export interface ProjectStatuses {
  /** `project`: from the project's own list; `default`: the project offers no list, the demo's ids are used */
  source: 'project' | 'default';
  paid: string;
  canceled: string;
  progress: string;
  /** the project's list as it answered (empty for `default`) */
  statuses: OrderStatusDefinition[];
}

/** The sandbox demo's ids, and what a project without a status list is assumed to know. */
export const DEFAULT_STATUSES = { paid: '1', canceled: '2', progress: '0' } as const;

/** The first status of each type the project lists; a type the list lacks keeps the default id. */
export function projectStatuses(listed: OrderStatusDefinition[] | null): ProjectStatuses {
  if (!listed || listed.length === 0) return { source: 'default', ...DEFAULT_STATUSES, statuses: [] };
  const first = (type: OrderStatusDefinition['type']) => listed.find((s) => s.type === type)?.id;
  return {
    source: 'project',
    paid: first('paid') ?? DEFAULT_STATUSES.paid,
    canceled: first('canceled') ?? DEFAULT_STATUSES.canceled,
    progress: first('progress') ?? DEFAULT_STATUSES.progress,
    statuses: listed,
  };
}
