import { ADD_ORDERS_COUNTERS, AddOrdersCounters } from '../../tracker/types/orders.types';

/** The types of a run and its counters, once: the run rows store them, the engine counts them, the admin API shows them. */

/** How a run reads; `retry` re-sends the rejected records of an earlier run (SyncService.retryRejected only). */
export const RUN_MODES = ['incremental', 'full', 'since', 'retry'] as const;
export type RunMode = (typeof RUN_MODES)[number];

export const RUN_TRIGGERS = ['schedule', 'admin', 'cli', 'startup'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Per-stream counters of a run (the run row's `streams`). */
export interface StreamCounters {
  read: number;
  unchanged: number;
  sent: number;
  rejected: number;
  sent_without_visit: number;
  /** sent, but whether the service created them is unknown (a create call timed out); not sent again. Absent while 0 */
  uncertain?: number;
}

/**
 * The service's add-orders counters, summed over a run's acknowledged batches: one per counter of the service's
 * answer (ADD_ORDERS_COUNTERS, the one list of their names), stored as the run row's columns.
 */
export type ServiceCounters = AddOrdersCounters;

export const SERVICE_COUNTER_KEYS: readonly (keyof ServiceCounters)[] = ADD_ORDERS_COUNTERS;
