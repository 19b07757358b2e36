import { ADD_ORDERS_COUNTERS, AddOrdersCounters } from '../tracker/types/orders.types';
import type { OutboundFlowName } from './outbound-flows';

export * from './outbound-flows';

/** The types of a run and its counters, once: the run rows store them, the engine counts them, the admin API shows them. */

/** How a sync reads; `retry` re-sends the rejected records of an earlier run (SyncService.retryRejected only). */
export const SYNC_MODES = ['incremental', 'full', 'since', 'retry'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

/**
 * A run's mode: how a sync reads, or the name of the outbound flow an outbound run is (`write_back`: the deals'
 * attribution written back into the CRM), as write-back runs have always read. (The flows' names are the
 * registry's: src/engine/outbound/flows/registry.ts.)
 */
export type RunMode = SyncMode | OutboundFlowName;

/** Which way a run goes: `sync` reads the source and sends to the service; `outbound` reads the service and writes into the CRM. */
export const RUN_DIRECTIONS = ['sync', 'outbound'] as const;
export type RunDirection = (typeof RUN_DIRECTIONS)[number];

/** The direction and flow a run of this mode records: every mode but a sync's is an outbound flow's name. */
export function directionOf(mode: RunMode): { direction: RunDirection; flow: OutboundFlowName | null } {
  return (SYNC_MODES as readonly string[]).includes(mode)
    ? { direction: 'sync', flow: null }
    : { direction: 'outbound', flow: mode as OutboundFlowName };
}

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
  /**
   * optional fields the connector could not read and left out of records this run sent (Page.skipped_fields: a
   * client's unreadable birth date); the records themselves were sent. Absent while 0
   */
  skipped_fields_by_invalid_format?: number;
  /**
   * records the connector held back because they are dated in the future (Page.deferred_future: a typo'd
   * updated_at), waiting until then; its notice names them. Absent while 0
   */
  deferred_future?: number;
  /** what the connector left out of this stream's records and why (ConnectorLogger.notice). Absent when none */
  notices?: string[];
}

/**
 * The service's add-orders counters, summed over a run's acknowledged batches: one per counter of the service's
 * answer (ADD_ORDERS_COUNTERS, the one list of their names), stored as the run row's columns.
 */
export type ServiceCounters = AddOrdersCounters;

export const SERVICE_COUNTER_KEYS: readonly (keyof ServiceCounters)[] = ADD_ORDERS_COUNTERS;


/**
 * A record a run rejected, as the engine's summaries and the answers carry it: plain data (the store's
 * `rejected_record` row has these fields).
 */
export interface RejectedRecord {
  id: number;
  run_id: number;
  connection_id: string;
  stream: string;
  external_id: string;
  field: string;
  reason: string;
  /** where the record came from in the source (`deals.csv row 16`), when the connector says */
  ref: string | null;
  excerpt: string | null;
  /** who rejected it: the connector (unreadable), the engine (a check) or the service */
  source: string;
  fingerprint: string | null;
  resolved: boolean;
  created_at: string;
}
