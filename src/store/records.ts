import type { OutboundFlowName, RejectedRecord, RunDirection, RunMode, RunStatus, RunTrigger, ServiceCounters, StreamCounters, WriteBackCounters } from '../runs/run-vocabulary';

/**
 * What the store hands out: its rows as plain data (no decorators, no TypeORM), one interface per table the rest
 * of the daemon reads. The entities (`entities/`) implement them for the store's own wiring; the repositories
 * return these types, so nothing outside the store sees an entity class.
 */

/** A configured connection (mirrors the config; `paused` is set by the admin and survives restarts). */
export interface ConnectionRow {
  id: string;
  connector: string;
  /** the connection's settings with secrets redacted: never holds a key or token */
  settings: Record<string, unknown>;
  schedule: string | null;
  paused: boolean;
  /** ISO-8601 UTC */
  created_at: string;
  /** ISO-8601 UTC */
  updated_at: string;
  /** the service and project its records were last sent to; null before its first run (kept by upsert) */
  target?: string | null;
}

/** How far a stream of a connection is fully acknowledged (highest updated_at covered). */
export interface CursorRow {
  connection_id: string;
  stream: string;
  /** UTC ISO-8601 with offset, e.g. '2025-03-10T09:00:00.000Z' */
  value: string;
  /** ISO-8601 UTC */
  set_at: string;
}

/** The columns of a `run` row: one run of one connection, a sync or an outbound flow (`direction`). */
export interface RunColumns extends ServiceCounters {
  id: number;
  connection_id: string;
  mode: RunMode;
  /** the date a `since` run reads from (as given), else null */
  since: string | null;
  trigger: RunTrigger;
  /** the process that runs it (host:pid:nonce) */
  holder: string | null;
  /** ISO-8601 UTC */
  started_at: string;
  /** ISO-8601 UTC */
  finished_at: string | null;
  status: RunStatus;
  streams: Partial<Record<string, StreamCounters>>;
  error: string | null;
  /** `sync` (source → service) or `outbound` (service → CRM: `flow` names the flow, and so does `mode`) */
  direction: RunDirection;
  /** an outbound run's flow (`write_back`), else null */
  flow: OutboundFlowName | null;
  /** an outbound run's counters (the names its flow's description gives), else null */
  flow_counters: Record<string, number> | null;
  /** the project (its name in the config) it was made for; null or absent: made before projects were recorded (project-rows.ts) */
  project?: string | null;
}

/** A run as the store hands it out: its columns, and a write-back run's counters as write-back runs always showed. */
export interface RunRow extends RunColumns {
  /** a write-back run's counters (flow_counters of flow write_back), else null */
  write_back: WriteBackCounters | null;
}

/** A write-back run's counters (flow write_back), else null: what write-back runs always showed. */
export function writeBackCountersOf(run: Pick<RunColumns, 'flow' | 'flow_counters'>): WriteBackCounters | null {
  return run.flow === 'write_back' ? ((run.flow_counters as WriteBackCounters | null) ?? null) : null;
}

/** A plain copy of a run's columns (an entity's getters do not survive a spread), with its write-back counters. */
export function toRunRow(columns: RunColumns): RunRow {
  return { ...columns, write_back: writeBackCountersOf(columns) };
}

/** Who refused a record: our checks, the connector, or the service. */
export type RejectionSource = 'check' | 'connector' | 'service';

/** A record that did not reach the service (`rejected_record`): why, where, and a short excerpt of it. */
export interface RejectedRecordRow extends RejectedRecord {
  source: RejectionSource;
}

/** One open problem (field) of a source record that is rejected and not fixed yet (`open_rejection`). */
export interface OpenRejectionRow {
  connection_id: string;
  stream: string;
  /** which source record: `id:<external_id>`, or `ref:<ref>` (open-rejection-key.ts) */
  record_key: string;
  field: string;
  /** the record's id in the source ('' when the row had none) */
  external_id: string;
  /** where it was seen last, e.g. 'deals.csv row 4' */
  ref: string | null;
  reason: string;
  /** at most 200 characters of the input */
  excerpt: string | null;
  source: RejectionSource;
  /** ISO-8601 UTC: when the record was first rejected (kept while it stays rejected) */
  first_seen: string;
  /** ISO-8601 UTC: the latest rejection */
  last_seen: string;
  /** the run that rejected it last (whose project it is: project-rows.ts) */
  last_run_id: number;
}

/** What one daemon is running, as written in its heartbeat. */
export interface DaemonRunningRun {
  connection_id: string;
  run_id: number | null;
}

/** A daemon sharing the store (`daemon`): written at start, refreshed by its heartbeat, removed at a clean stop. */
export interface DaemonRow {
  /** the daemon's instance id, the same string as the `holder` of its leases and runs */
  id: string;
  host: string;
  pid: number;
  /** ISO-8601 UTC */
  started_at: string;
  /** ISO-8601 UTC; a daemon whose heartbeat is old is gone */
  heartbeat_at: string;
  running: DaemonRunningRun[];
}

/** Who runs a connection now (`lease`). */
export interface LeaseRow {
  connection_id: string;
  /** the holding daemon's instance id (host:pid:nonce); '' when free */
  holder: string;
  run_id: number | null;
  /** ISO-8601 UTC; a lease past it may be taken by anyone */
  expires_at: string;
  /** ISO-8601 UTC of the latest scheduled tick a daemon claimed */
  last_slot: string | null;
}

/** One condition an alert watches (`alert_state`): (alert, connection, event). */
export interface AlertStateRow {
  alert_id: string;
  connection_id: string;
  event: string;
  active: boolean;
  /** ISO-8601 UTC: when the condition was first alerted (null before) */
  first_at: string | null;
  /** ISO-8601 UTC of the last alert or reminder delivered (the channel took it); null before the first */
  last_sent_at: string | null;
  /** ISO-8601 UTC: when it last recovered */
  ended_at: string | null;
  /** the run that raised it last (null for no_success_for) */
  run_id: number | null;
  /** what was alerted, for reminders and the status page */
  message: string | null;
  /** ISO-8601 UTC of the last send claimed (alert, reminder, recovered), delivered or not: daemons send each claim once */
  claimed_at: string | null;
  /** ISO-8601 UTC: the last delivery failed, its send is claimable again from then (a backoff); null otherwise */
  retry_at: string | null;
  /** deliveries failed in a row since the last one delivered */
  delivery_failures: number;
  /** why the last delivery failed (null once one is delivered) */
  last_error: string | null;
  /** the project (its name in the config) it was made for; null or absent: made before projects were recorded (project-rows.ts) */
  project?: string | null;
}

export const ALERT_DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERY_STATUSES)[number];

/** One message sent (or being sent) to one alert's channel (`alert_delivery`), with how its delivery went. */
export interface AlertDeliveryRow {
  id: number;
  alert_id: string;
  /** webhook | slack | telegram | email */
  type: string;
  /** run_failed, recovered, ..., or `test` */
  event: string;
  /** null for a test message */
  connection_id: string | null;
  run_id: number | null;
  /** a repeat of an active condition */
  reminder: boolean;
  /** the text sent (no secrets: built from scrubbed parts) */
  message: string;
  status: AlertDeliveryStatus;
  attempts: number;
  /** why the last attempt failed (scrubbed) */
  last_error: string | null;
  /** ISO-8601 UTC */
  created_at: string;
  /** ISO-8601 UTC, once delivered */
  sent_at: string | null;
  /** the project (its name in the config) it was made for; null or absent: made before projects were recorded (project-rows.ts) */
  project?: string | null;
}

/** One proxy lead of the service and what lead delivery made of it in the CRM (`lead_delivery`). */
export interface LeadDeliveryRow {
  connection_id: string;
  /** the proxy lead's id in the service */
  lead_id: string;
  /** pending (a create or note was sent, its outcome unknown) | created (a new deal) | attached (a note on a deal) */
  state: 'pending' | 'created' | 'attached';
  /** what the pending attempt was: the lead's new contact (no deal sent yet), its deal, or a note */
  attempt: 'contact' | 'deal' | 'note';
  /** the CRM deal: the one created, or the one the note went on */
  deal_id: string | null;
  contact_id: string | null;
  /** the note's id (attached) */
  note_id: string | null;
  /** the service's day of the lead (its creation_date, UTC): YYYY-MM-DD */
  lead_day: string;
  /** ISO-8601 UTC */
  attempted_at: string;
  /** ISO-8601 UTC; null while pending */
  delivered_at: string | null;
  run_id: number | null;
}

/** The last webhook call of a connection (`webhook_call`). */
export interface WebhookCallRow {
  connection_id: string;
  /** ISO-8601 UTC */
  last_call_at: string;
  /** accepted, refused, too_large, rate_limited or paused */
  last_outcome: string;
  /** ISO-8601 UTC of the last accepted call; '' when none was */
  last_accepted_at: string;
  /** the project (its name in the config) it was made for; null or absent: made before projects were recorded (project-rows.ts) */
  project?: string | null;
}
