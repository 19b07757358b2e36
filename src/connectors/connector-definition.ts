import type { CanonicalRecord, DealStage, StreamName } from './canonical';
import type { WebhookCapability } from './webhook-capability';

/**
 * The plugin contract. A connector is a definition object; built-ins live in the top-level
 * `connectors/` folder, and any folder there whose index exports a definition is loaded too.
 */

/** A record the connector could not turn into a canonical record (bad row, bad date, ...). */
export interface RejectedInput {
  /** the record's id in the source, or '' when the row has none */
  id: string;
  /** canonical field or source column that failed, e.g. 'created_at' */
  field: string;
  /** human text naming the value, e.g. '"31.02.2025" is not a valid date' */
  reason: string;
  /** where it came from, e.g. 'deals.csv row 4' */
  ref?: string;
  /** a short excerpt of the raw input (at most ~200 chars) */
  excerpt?: string;
}

/**
 * An optional field the connector could not read and left out of a record it kept (a client's birth date typed as
 * free text that no reading makes a date): the record is yielded on the same page without it. The engine counts
 * it in the stream's `skipped_fields_by_invalid_format` and warns naming the connection, the record and the field,
 * as the service's own counter of that name counts the fields it drops from orders it saves.
 */
export interface SkippedField {
  /** the record's id, as the record yielded carries it */
  id: string;
  /** canonical field or source column left out, e.g. 'birth_date' */
  field: string;
  /** human text naming the value, e.g. '"скоро" is not a valid date' */
  reason: string;
  /** where it came from, e.g. 'clients.csv row 4' */
  ref?: string;
}

/** One page of a stream, in source order. */
export interface Page<T extends CanonicalRecord = CanonicalRecord> {
  records: T[];
  /** where each record came from (same index as records), for messages: 'deals.csv row 4' */
  refs?: string[];
  /**
   * Optional cheap fingerprint of each record's raw source (same index), e.g. a hash of the raw row.
   * When given, the engine uses it instead of hashing the mapped payload.
   */
  hashes?: string[];
  rejected?: RejectedInput[];
  /** optional fields left out of this page's records because they could not be read (the records are kept) */
  skipped_fields?: SkippedField[];
  /**
   * Opaque connector state to persist once the whole stream is acknowledged (e.g. a file's content hash);
   * handed back as ReadContext.state on the next run (null on a full resync).
   */
  state?: Record<string, unknown>;
  /** true when the connector recognised the source as unchanged since `state` and read nothing */
  unchanged?: boolean;
  /** how far through the source this stream's read is, after this page (when the connector can tell) */
  progress?: SourceProgress;
  /**
   * records held back because their updated_at is later than the read itself (a typo'd year): not yielded, and
   * waiting until then. Counted in the stream's `deferred_future`; the connector's notice names them.
   */
  deferred_future?: number;
}

/**
 * A read's position in its source: bytes of a file read so far and the file's size, or records fetched
 * and the total the CRM reports. `total` is null when the source does not say (a progress display then
 * shows counts and rates, no percentage).
 */
export interface SourceProgress {
  done: number;
  total: number | null;
  /** `pages` and `deals`: an outbound flow's read of the service (pages of a list, deals looked up one by one) */
  unit: 'bytes' | 'records' | 'pages' | 'deals';
}

export interface StreamSpec {
  name: StreamName;
  /** the records carry an updated_at the engine can use as a cursor */
  incremental: boolean;
  /** records arrive in ascending updated_at order; the engine checks it and fails loudly if not */
  sorted?: boolean;
  /**
   * with `sorted`: a read from the beginning (the first, a full resync) comes in another order (by id, as a CRM
   * reads a large list fastest): the engine checks no order then and moves the cursor at its end, to the latest
   * record read
   */
  firstReadUnsorted?: boolean;
}

/** The window of one read: the engine fixes it at the start of the run. */
export interface ReadCursor {
  /** records updated at or after this instant (stored cursor minus overlap); null = from the beginning */
  since: Date | null;
  /** the run's upper bound (start time minus lag): the signpost; records updated later wait for the next run */
  until: Date;
}

export interface ConnectorLogger {
  log(message: string): void;
  warn(message: string): void;
  debug?(message: string): void;
  /**
   * A warning the run keeps and the status page shows with the stream (not only the log): part of the data is
   * left out while the rest goes (a CRM refusing the products endpoint). Once per run per problem.
   */
  notice?(message: string): void;
}

/**
 * Secrets a connector must share with every daemon and CLI process of the installation, because they change
 * while it runs: a rotating OAuth2 refresh token (each refresh voids the one before). Kept in the store per
 * connector name and key, so connections of one CRM account share one token: make the key say which secret it
 * is (e.g. a digest of the token URL, client and configured token). Values are opaque text (the connector's own
 * JSON). Absent when the host keeps no store.
 */
export interface ConnectorSecrets {
  /** the stored value, or null when never written */
  get(key: string): Promise<string | null>;
  /** stores `next` only if the stored value is still `expected` (null: never written); false when it was not */
  compareAndSet(key: string, expected: string | null, next: string): Promise<boolean>;
  /**
   * runs `fn` holding `key`'s lock across the cluster: one holder at a time, the others wait for it (a refresh
   * at a time); the lock is freed if its holder dies
   */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export interface ReadContext<S = unknown> {
  connectionId: string;
  settings: S;
  logger: ConnectorLogger;
  /** aborted on shutdown: stop reading at the next page boundary */
  signal?: AbortSignal;
  /** state this stream's last acknowledged read returned (Page.state); null on first run / full resync */
  state: Record<string, unknown> | null;
  /** folder for the connector's own files (downloads), under the data folder */
  workDir?: string;
  /** rotating secrets shared across the cluster (OAuth2 refresh tokens); see ConnectorSecrets */
  secrets?: ConnectorSecrets;
  /** a dry run (preview): read only this many records if the connector can stop early */
  limit?: number;
  /**
   * the streams this run reads after this one, in order: a connector may prepare them meanwhile (the
   * spreadsheet connector scans their files on another thread)
   */
  laterStreams?: StreamName[];
  /** what this connector's `open` returned for the run (its token, limiter, caches), when it has one */
  session?: unknown;
  /**
   * an incremental read from a cursor: the ids of the stream's records with an open rejection (rejected, not sent
   * since). A connector that can reads them whatever their updated_at (the spreadsheet does): a record fixed
   * without its updated_at moving (a bad price corrected by hand) is retried.
   */
  openRejections?: readonly string[];
}

/** What `open` gets: the run's connection, settings and tools (a read's context without a stream's). */
export type RunContext<S = unknown> = Omit<ReadContext<S>, 'state' | 'limit' | 'laterStreams' | 'session' | 'openRejections'>;

export interface CheckResult {
  ok: boolean;
  message: string;
  /** what does not stop a run but loses data (a visit field the CRM lacks, a feature the CRM refuses) */
  warnings?: string[];
  /**
   * The source's stages no status_map key covers (`stageMapping`'s stages with status null; absent when none): a
   * connection with `statuses: map` is warned about them, since their deals go with the stage id as status; with
   * `statuses: register` every stage is sent as itself on purpose and registered first.
   */
  uncovered_stages?: StageMapping['stages'];
}

export interface DiscoveredField {
  stream: StreamName;
  name: string;
  type?: string;
  example?: unknown;
}

/** A stage of a pipeline, with what the CRM itself says it means (won, lost, or still open). */
export interface CatalogStage {
  id: string;
  name: string;
  outcome: 'won' | 'lost' | 'open';
  /** false: the CRM takes no new deal in this stage through its API (amoCRM's unsorted stage); absent: it does */
  creatable?: false;
}

export interface CatalogPipeline {
  id: string;
  name: string;
  stages: CatalogStage[];
}

/** A deal status that is no stage (Pipedrive's won and lost). */
export interface CatalogDealStatus {
  key: string;
  name: string;
  outcome: 'won' | 'lost' | 'open';
}

export interface CatalogField {
  /** the id or key the CRM's records and updates use */
  id: string;
  name: string;
  type: string | null;
}

export interface CatalogUser {
  id: string;
  name: string;
}

/** What a CRM holds that a connection's mapping is written from (`cli discover`, `init`, `check`). */
export interface SourceCatalog {
  pipelines: CatalogPipeline[];
  deal_statuses: CatalogDealStatus[];
  deal_fields: CatalogField[];
  contact_fields: CatalogField[];
  users: CatalogUser[];
}

/** How a connection's deal stages reach the service: each stage's target, and deals of the last run per stage. */
export interface StageMapping {
  stages: { pipeline: string | null; id: string; name: string; outcome: 'won' | 'lost' | 'open'; status: string | null; deals_last_run: number }[];
  /**
   * how the connection's stages become the service's statuses (connections[].statuses): `map` through
   * status_map (status null: no key covers the stage), `register`: each stage is registered in the project and
   * sent as itself (status = its id). Set by the daemon, not the connector.
   */
  statuses?: 'map' | 'register';
  /** stage (as the CRM has it) -> deals of the last complete read; stages the catalog does not list show here too */
  last_run: { at: string; deals: Record<string, number> } | null;
}

export interface ConnectorDefinition<S extends object = any> {
  /** the name connections use in `connector:` */
  name: string;
  description?: string;
  /** the named descriptions a connection may pick with `settings.preset` (the generic CRM's CRMs), for `cli init` */
  presets?: readonly string[];
  /** class-validator class of `settings`; validated at config load with the config path */
  settingsClass: new () => S;
  /** streams this connector offers with the given settings */
  streams(settings: S): StreamSpec[];
  /** reach the source and verify credentials */
  check(settings: S, context: Omit<ReadContext<S>, 'state'>): Promise<CheckResult>;
  read(stream: StreamName, cursor: ReadCursor, context: ReadContext<S>): AsyncIterable<Page>;
  /**
   * The module (its file, `__filename`) whose default export is this definition, when its `read` may run on a
   * worker thread (tracker.workers): the engine then reads, maps and serialises the stream there, the main thread
   * sending. Such a read gets plain settings, state, window, work folder and a logger; no session, secrets or limit.
   */
  workerModule?: string;
  discover?(settings: S, context: Omit<ReadContext<S>, 'state'>): Promise<DiscoveredField[]>;
  /** the CRM's pipelines, stages, fields and users (optional): what `cli discover` proposes a mapping from */
  catalog?(settings: S, context: Omit<ReadContext<S>, 'state'>): Promise<SourceCatalog>;
  /**
   * The connection's own mapping of stages to the service's statuses (optional): `status` null where the
   * settings map no stage; with the deals of the last run per stage. The status page and `check` show it.
   */
  stageMapping?(settings: S, catalog: SourceCatalog, context: Omit<ReadContext<S>, 'state'>): StageMapping;
  /**
   * Where the settings keep the map of the source's stages to the service's status ids (optional; absent: the
   * settings' `status_map`, as the generic CRM keeps it): `check` warns of each target the project lacks.
   */
  statusMap?(settings: S): Record<string, string> | undefined;
  /**
   * Problems that do not stop the daemon but will fail a run (a local file that is not there yet), checked
   * cheaply and synchronously at start-up; each is logged as a warning naming the connection.
   */
  startupWarnings?(settings: S): string[];
  /**
   * Optional, once per run (a sync, an outbound pass) before the run's first read or write: what the run keeps
   * (a token, a rate limiter, a cache) instead of module-level state. It reaches every read and write of the
   * run as `context.session`; `close(session)` follows when the run ends, whatever its outcome.
   */
  open?(settings: S, context: RunContext<S>): Promise<unknown> | unknown;
  close?(session: unknown): Promise<void> | void;
  /**
   * The CRM's deal stages with names and groups (optional): a connection with `statuses: register` defines them in
   * the project before its deals are sent with these ids. Throws naming what is missing when the settings give no way
   * to list them.
   */
  stages?(settings: S, context: Omit<ReadContext<S>, 'state'>): Promise<DealStage[]>;
  /** optional: how the CRM's webhook calls are verified, and their registration (src/connectors/webhook-capability.ts) */
  webhooks?: WebhookCapability<S>;
  /**
   * Named CRM actions the outbound flows ask for (optional): write-back (`update_deals`, `deal_fields`), lead
   * delivery (`find_deals`, `create_deal`, …), manager tasks (`find_tasks`, `create_task`): see
   * CrmActionsCapability (crm-actions.ts). A connector without it writes nothing into its CRM.
   */
  actions?: import('./crm-actions').CrmActionsCapability<S>;
}

/**
 * The attribution values the engine computes from a deal's visit (the service's order list with
 * `extend: ["visit"]`) and a connector may write back into the deal. Their meaning: README "Write-back".
 */
export const ATTRIBUTION_VALUES = [
  'channel', 'channel_1', 'channel_2', 'channel_3',
  'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content',
  'landing_page', 'referrer', 'city', 'visit_id', 'visit_date',
] as const;
export type AttributionValue = (typeof ATTRIBUTION_VALUES)[number];

/**
 * A connection's write-back, as the engine needs it (the flow reads it from its settings block, `write_back`; the
 * CRM side is the connector's CRM actions `update_deals` and `deal_fields`, src/connectors/crm-actions.ts).
 */
export interface WriteBackPlan {
  /** attribution value -> the CRM deal field (id or name) it is written to; only these are computed */
  fields: Partial<Record<AttributionValue, string>>;
  /** deals created this many days back or later are looked at */
  sinceDays: number;
  /** cron of a write-back of its own; undefined = right after each successful sync of the connection */
  schedule?: string;
}

/**
 * One deal's update: its id in the CRM and every value of the plan's `fields`; a value the visit does not
 * have (no utm_term) is '' so a changed visit leaves no stale text behind. Deals without a visit never come.
 */
export interface DealWrite {
  id: string;
  values: Partial<Record<AttributionValue, string>>;
}


/**
 * What the CRM made of one item of a flow's write: taken (`written`, with the operation's answer, e.g. the id of
 * what it created) or refused with its reason.
 */
export type WriteOutcome<A extends object = object> =
  | ({ id: string; status: 'written' } & A)
  | { id: string; status: 'rejected'; reason: string; field?: string };

export interface WriteContext<S = unknown> {
  connectionId: string;
  settings: S;
  logger: ConnectorLogger;
  signal?: AbortSignal;
  workDir?: string;
  secrets?: ConnectorSecrets;
  /** what this connector's `open` returned for the run, when it has one */
  session?: unknown;
}

/** Helper that gives a definition its type without a cast: `export default defineConnector({...})`. */
export function defineConnector<S extends object>(definition: ConnectorDefinition<S>): ConnectorDefinition<S> {
  return definition;
}

export function isConnectorDefinition(value: unknown): value is ConnectorDefinition {
  const v = value as ConnectorDefinition | null;
  return (
    !!v &&
    typeof v === 'object' &&
    typeof v.name === 'string' &&
    typeof v.settingsClass === 'function' &&
    typeof v.streams === 'function' &&
    typeof v.read === 'function' &&
    typeof v.check === 'function'
  );
}
