import type { CanonicalRecord, StreamName } from '../connectors/canonical';
import type { RejectedInput, SourceProgress } from '../connectors/connector-definition';
import type { RejectedRecordEntity } from '../store/entities/rejected-record.entity';
import type { RunStatusValue } from '../store/entities/run.entity';

/** How a run reads; `retry` re-sends the rejected records of an earlier run (SyncService.retryRejected only). */
export type RunMode = 'incremental' | 'full' | 'since' | 'retry';
export type RunTrigger = 'schedule' | 'admin' | 'cli' | 'startup';
export type RunStatus = RunStatusValue;

export interface StartRunOptions {
  mode: RunMode;
  /** with mode 'since': 'YYYY-MM-DD' (UTC midnight) or an ISO instant */
  since?: string;
  trigger: RunTrigger;
  /** run only these streams (still in dependency order) */
  onlyStreams?: StreamName[];
  /**
   * trigger 'schedule': the tick this run belongs to (default: the latest tick of the connection's
   * schedule). Each tick runs once across every daemon sharing the store.
   */
  scheduledAt?: Date;
}

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

export interface RunSummary {
  runId: number;
  connectionId: string;
  mode: RunMode;
  trigger: RunTrigger;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  streams: Partial<Record<StreamName, StreamCounters>>;
  counters: ServiceCounters;
  rejectedCount: number;
  /** the first 20 rejected records of the run */
  rejected: RejectedRecordEntity[];
  error: string | null;
}

export interface ProgressEvent {
  connectionId: string;
  runId: number;
  stream: StreamName;
  read: number;
  sent: number;
  unchanged: number;
  rejected: number;
  /** how far through the source the stream's read is (the last page's Page.progress); absent when the connector does not say */
  source?: SourceProgress;
}

export interface PreviewOptions {
  stream?: StreamName;
  /** records per stream (default 5) */
  limit?: number;
}

export interface PreviewProblem {
  field: string;
  reason: string;
}

export interface PreviewRecord {
  /** the canonical record as the connector yielded it */
  record: CanonicalRecord;
  ref?: string;
  /** the exact payload the engine would send (null when mapping failed) */
  payload: unknown;
  /** the checks' verdicts: empty = would be sent */
  problems: PreviewProblem[];
  /** true when the service already acknowledged this exact payload */
  unchanged: boolean;
}

export interface PreviewStream {
  stream: StreamName;
  records: PreviewRecord[];
  /** what the connector itself could not read */
  rejected: RejectedInput[];
  error?: string;
}

export interface PreviewResult {
  connectionId: string;
  streams: PreviewStream[];
}
