import type { CanonicalRecord, StreamName } from '../connectors/canonical';
import type { RejectedInput, SkippedField, SourceProgress } from '../connectors/connector-definition';
import type { ConnectionRow, CursorRow } from '../store/records';

export type { RejectedRecord, RunDirection, RunMode, RunTrigger, RunStatus, StreamCounters, ServiceCounters, WriteBackCounters, OutboundFlowName } from '../runs/run-vocabulary';
export { SERVICE_COUNTER_KEYS } from '../runs/run-vocabulary';
import type { OutboundFlowName, RejectedRecord, RunDirection, RunMode, RunTrigger, RunStatus, StreamCounters, ServiceCounters, WriteBackCounters } from '../runs/run-vocabulary';

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
  rejected: RejectedRecord[];
  error: string | null;
  /** failed for a reason no retry lifts soon (refused credentials, a spent daily quota): cluster mode does not retry its job */
  lasting?: boolean;
  /** `sync`, or `outbound` (then `flow` names the flow, as `mode` does, and `flowCounters` are its counters) */
  direction: RunDirection;
  flow: OutboundFlowName | null;
  /** an outbound run's counters, named by its flow's description (outbound/flows/<flow>/<flow>.description.ts) */
  flowCounters?: Record<string, number>;
  /** a write-back run's counters (flow write_back): `flowCounters` under the name write-back runs always had */
  writeBack?: WriteBackCounters;
  /** the outbound run that followed this sync (a flow without a schedule of its own), followed in turn by the next */
  followedBy?: RunSummary;
}

/**
 * A run that could not start though nothing else ran (the store refused its lease or its row: a full disk, an I/O
 * error): no run row, no summary, and yet the connection's sync did not happen. Not a run going elsewhere.
 */
export interface RunRefused {
  connectionId: string;
  direction: RunDirection;
  flow: OutboundFlowName | null;
  trigger: RunTrigger;
  /** "the store could not record the run: SQLITE_FULL: database or disk is full" */
  error: string;
  /** ISO-8601 UTC */
  at: string;
}

export interface ProgressEvent {
  connectionId: string;
  /** 0: a dry run, which has no run */
  runId: number;
  /** a sync's stream, or an outbound run's flow */
  stream: StreamName | OutboundFlowName;
  read: number;
  sent: number;
  unchanged: number;
  rejected: number;
  /** how far through the source the stream's read is (the last page's Page.progress); absent when the connector does not say */
  source?: SourceProgress;
  /** an outbound flow's counters so far, named by its description (read/sent/unchanged/rejected then mirror them) */
  flowCounters?: Record<string, number>;
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
  /** optional fields the connector could not read and left out of the records shown (absent when none) */
  skipped_fields?: SkippedField[];
  error?: string;
}

export interface PreviewResult {
  connectionId: string;
  streams: PreviewStream[];
}

/** A configured connection as stored: the store's plain `connection` row. */
export type StoredConnection = ConnectionRow;

/** How far a stream of a connection is fully acknowledged: the store's plain `cursor` row. */
export type StoredCursor = CursorRow;
