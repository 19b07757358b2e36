import type { RunStatusValue } from '../entities/run.entity';

/** The types of a run and its counters, as the run repository stores them and the engine counts them. */

/** How a run reads; `retry` re-sends the rejected records of an earlier run (SyncService.retryRejected only). */
export type RunMode = 'incremental' | 'full' | 'since' | 'retry';
export type RunTrigger = 'schedule' | 'admin' | 'cli' | 'startup';
export type RunStatus = RunStatusValue;

export interface StreamCounters {
  read: number;
  unchanged: number;
  sent: number;
  rejected: number;
  sent_without_visit: number;
  /** sent, but whether the service created them is unknown (a create call timed out); not sent again. Absent while 0 */
  uncertain?: number;
}

/** The service's add-orders counters, summed over a run's acknowledged batches. */
export interface ServiceCounters {
  uploaded: number;
  processed: number;
  saved: number;
  skipped_by_status: number;
  skipped_by_waiting_visit_info: number;
  skipped_by_internal_error: number;
  skipped_because_not_changed: number;
  skipped_by_invalid_format: number;
  skipped_fields_by_invalid_format: number;
}

export const SERVICE_COUNTER_KEYS: readonly (keyof ServiceCounters)[] = [
  'uploaded',
  'processed',
  'saved',
  'skipped_by_status',
  'skipped_by_waiting_visit_info',
  'skipped_by_internal_error',
  'skipped_because_not_changed',
  'skipped_by_invalid_format',
  'skipped_fields_by_invalid_format',
];

