import { ADD_ORDERS_COUNTERS, AddOrdersCounters } from '../tracker/types/orders.types';

/** The types of a run and its counters, once: the run rows store them, the engine counts them, the admin API shows them. */

/**
 * How a run reads; `retry` re-sends the rejected records of an earlier run (SyncService.retryRejected only);
 * `write_back` writes the deals' attribution back into the CRM (SyncService.writeBack only).
 */
export const RUN_MODES = ['incremental', 'full', 'since', 'retry', 'write_back'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/**
 * Who started a run; `webhook` is reserved for the CRM's calls (issue 30). Every trigger goes through
 * RunTriggerService (src/application/runs/).
 */
export const RUN_TRIGGERS = ['schedule', 'admin', 'cli', 'startup', 'webhook'] as const;
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

/** A write-back run's counters (the run row's `write_back`), with what each means. */
export const WRITE_BACK_COUNTER_MEANINGS = {
  attributed: "the connection's deals in the window whose order has a visit",
  written: 'deals whose changed values the CRM took',
  unchanged: 'deals whose values were already written (nothing sent)',
  rejected: 'deals the CRM refused (each a rejected record with its reason)',
} as const;
export type WriteBackCounters = Record<keyof typeof WRITE_BACK_COUNTER_MEANINGS, number>;
export const WRITE_BACK_COUNTERS = Object.keys(WRITE_BACK_COUNTER_MEANINGS) as (keyof WriteBackCounters)[];
