/**
 * The shape of config/tracker-sync.yaml. Keys are snake_case exactly as written in the file;
 * every field carries its default, its validation rule and its `@Doc` line for the README.
 * Unknown keys are rejected at every level (see load-config.ts) except inside a connection's
 * `settings`, which the connector validates.
 */
import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsOptional, ValidateIf, ValidateNested } from 'class-validator';
import { AdminTokenConfig } from './admin-tokens';
import { AlertConfig } from './alert-config';
import { ClusterConfig } from './cluster-config';
import { WebhookConfig } from './webhook-config';
import { Doc } from './config-doc';
import { EmptyAsAbsent, ToBoolean, ToLowerCase, ToNumber, ToOnOff, ToText } from './config-transforms';
import {
  CronSchedule, Flag, IntRange, isMapping, List, Mapping, Matches, NumberRange, OneOf, ProjectNumber, Text, TextList, UrlWithProtocol,
} from './config-validators';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LOG_FORMATS = ['pretty', 'json'] as const;
export const SANDBOX_SEEDS = ['demo', 'none'] as const;
export const CONNECTION_ID = /^[a-z0-9][a-z0-9_-]*$/i;
export const STATUS_MODES = ['map', 'register'] as const;
export type StatusMode = (typeof STATUS_MODES)[number];

export class ServerConfig {
  @Doc('Address the admin API and health check listen on.', { type: 'string' })
  @Text()
  host = '127.0.0.1';

  @Doc('Port of the admin API (env PORT).', { type: 'integer 0..65535' })
  @ToNumber() @IntRange(0, 65535)
  port = 3000;

  @Doc('The address CRMs call this daemon at, up to (not including) /hooks, e.g. https://sync.example.com behind a reverse proxy with TLS; HubSpot signs it, `webhooks register` registers it.', {
    type: 'http(s) URL',
  })
  @IsOptional() @EmptyAsAbsent() @UrlWithProtocol(['http', 'https'])
  public_url?: string;
}

export class RateLimitConfig {
  @Doc('Requests per second this installation (every daemon and CLI process of the store) may send to the project (the service allows 10 for all its integrations).', {
    type: 'integer >= 1',
  })
  @ToNumber() @IntRange(1)
  per_second = 8;

  @Doc('Requests per hour this installation (every daemon and CLI process of the store) may send to the project, over a sliding hour that restarts do not reset (the service allows 5000 for all its integrations).', {
    type: 'integer >= 1',
  })
  @ToNumber() @IntRange(1)
  per_hour = 4000;
}

/** `off`, `OFF` or `false` lift the limit; a mapping becomes a RateLimitConfig with its defaults. */
function rateLimitValue(value: unknown): unknown {
  if (value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'off')) return 'off';
  return isMapping(value) ? plainToInstance(RateLimitConfig, value) : value;
}

export class TrackerConfig {
  @Doc('URL of the service API (env TRACKER_BASE_URL); absent or empty = the embedded sandbox.', { type: 'http(s) URL' })
  @IsOptional() @EmptyAsAbsent() @UrlWithProtocol(['http', 'https'])
  base_url?: string;

  @Doc('Api-key of the service (env TRACKER_API_KEY); required with base_url.', { type: 'string (secret)' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  api_key?: string;

  @Doc('Project number (env TRACKER_PROJECT); required with base_url while a connection feeds this project (no `project:`).', { type: 'string of digits (no leading zero)' })
  @IsOptional() @EmptyAsAbsent() @ToText() @ProjectNumber()
  project?: string;

  @Doc('Records per add-orders / import request; trades requests for payload size.', { type: 'integer 1..10000' })
  @ToNumber() @IntRange(1, 10000)
  batch_size = 500;

  @Doc('Batches in flight at once where order does not matter; a crash re-sends at most twice as many.', { type: 'integer 1..32' })
  @ToNumber() @IntRange(1, 32)
  concurrency = 4;

  @Doc('Worker threads that read, map and serialise a connector\'s records (the spreadsheet\'s files) beside the thread that sends them; 0: in that thread. Default: 1 on a machine with more than one core, else 0.', { type: 'integer 0..16' })
  @IsOptional() @ToNumber() @IntRange(0, 16)
  workers?: number;

  @Doc('Timeout of one request, in milliseconds.', { type: 'integer >= 1' })
  @ToNumber() @IntRange(1)
  timeout_ms = 30000;

  @Doc('Retries of a request after a network error, timeout, 429 or 5xx.', { type: 'integer >= 0' })
  @ToNumber() @IntRange(0)
  retries = 5;

  @Doc('This installation\'s share of the project-wide budget, kept in the store and drawn by every daemon and CLI process, or "off" for a target that is not the real service.', {
    type: '{ per_second, per_hour } | "off"',
    nested: () => RateLimitConfig,
  })
  @Transform(({ value }) => rateLimitValue(value))
  @ValidateIf((config: TrackerConfig) => config.rate_limit !== 'off')
  @ValidateNested({ message: 'must be "off" or a mapping { per_second, per_hour }' })
  rate_limit: RateLimitConfig | 'off' = new RateLimitConfig();
}

/** A project's name in the config: it appears in URLs, labels and logs. */
export const PROJECT_NAME = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * One project of the service this installation feeds (`projects.<name>`): its number, and where its key, URL and
 * budget differ from the `tracker:` section's (one key may own many projects).
 */
export class ProjectConfig {
  @Doc("The service's project number.", { type: 'string of digits (no leading zero)' })
  @ToText() @ProjectNumber()
  project: string;

  @Doc("Api-key of the service for this project; default tracker.api_key.", { type: 'string (secret)' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  api_key?: string;

  @Doc('URL of the service API for this project; default tracker.base_url (absent there too = the embedded sandbox).', { type: 'http(s) URL' })
  @IsOptional() @EmptyAsAbsent() @UrlWithProtocol(['http', 'https'])
  base_url?: string;

  @Doc("This installation's share of this project's budget; default tracker.rate_limit.", {
    type: '{ per_second, per_hour } | "off"',
    nested: () => RateLimitConfig,
  })
  @IsOptional()
  @Transform(({ value }) => rateLimitValue(value))
  @ValidateIf((config: ProjectConfig) => config.rate_limit !== undefined && config.rate_limit !== 'off')
  @ValidateNested({ message: 'must be "off" or a mapping { per_second, per_hour }' })
  rate_limit?: RateLimitConfig | 'off';
}

/** `projects:` as written: each value becomes a ProjectConfig (validated in config-rules.ts, key by key). */
function projectsValue(value: unknown): unknown {
  if (!isMapping(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, project]) => [name, isMapping(project) ? plainToInstance(ProjectConfig, project) : project]));
}

export class SandboxConfig {
  @Doc('Data the embedded sandbox starts with.', { type: '"demo" | "none"' })
  @ToLowerCase() @OneOf(SANDBOX_SEEDS)
  seed: (typeof SANDBOX_SEEDS)[number] = 'demo';

  @Doc('Api-key of the embedded sandbox; generated when absent.', { type: 'string (secret)' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  api_key?: string;

  @Doc('SQLite file of the embedded sandbox (or ":memory:"); default <data_dir>/sandbox.sqlite.', { type: 'path' })
  @IsOptional() @EmptyAsAbsent() @Text()
  db?: string;

  @Doc('How many projects the embedded sandbox hosts (numbers 1..N, all owned by its key; the demo seed fills project 1); a `projects:` block without base_url targets sandbox project <its number>.', { type: 'integer >= 1' })
  @ToNumber() @IntRange(1)
  projects = 1;

  @Doc('The project-wide budget (10/s, 5000/h) the sandbox enforces like the service.', { type: '"on" | "off"' })
  @ToOnOff() @ToLowerCase() @OneOf(['on', 'off'])
  budget: 'on' | 'off' = 'on';

  @Doc('Fraction of requests answered with a fault (429, 500, timeout, dropped connection).', { type: 'number 0..1' })
  @ToNumber() @NumberRange(0, 1)
  faults = 0;

  @Doc('Fixed delay added to every sandbox answer, in milliseconds.', { type: 'integer >= 0' })
  @ToNumber() @IntRange(0)
  latency_ms = 0;
}

export class AdminConfig {
  @Doc('Bearer token of the admin API (env ADMIN_TOKEN); generated on first start when absent.', { type: 'string (secret)' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  token?: string;

  @Doc('Scoped tokens: each sees only its projects\' connections, runs, rejections and alerts (README "Agencies").', {
    type: 'list',
    nested: () => AdminTokenConfig,
    list: true,
  })
  @List() @ValidateNested({ each: true }) @Type(() => AdminTokenConfig)
  tokens: AdminTokenConfig[] = [];
}

export class LogConfig {
  @Doc('Lowest level written (env LOG_LEVEL).', { type: '"debug" | "info" | "warn" | "error"' })
  @ToLowerCase() @OneOf(LOG_LEVELS)
  level: (typeof LOG_LEVELS)[number] = 'info';

  @Doc('Human-readable lines or one JSON object per line (env LOG_FORMAT).', { type: '"pretty" | "json"' })
  @ToLowerCase() @OneOf(LOG_FORMATS)
  format: (typeof LOG_FORMATS)[number] = 'pretty';
}

export class StoreConfig {
  @Doc('Database URL (env DATABASE_URL); absent = SQLite file under data_dir.', { type: 'postgres:// URL' })
  @IsOptional() @EmptyAsAbsent() @UrlWithProtocol(['postgres', 'postgresql'])
  url?: string;
}

export class SchedulerConfig {
  @Doc('Runs the scheduler keeps going at once in this daemon (scheduled, run_on_start, resumed after a stop); the others wait for a slot in turn, so a hundred connections on one schedule start a few at a time. Runs by hand or by webhook do not wait.', { type: 'integer >= 1' })
  @ToNumber() @IntRange(1)
  concurrency = 16;
}

export class SyncOptionsConfig {
  @Doc('Seconds the next run re-reads before the cursor; duplicates are dropped by fingerprint.', { type: 'integer >= 0' })
  @ToNumber() @IntRange(0)
  overlap_seconds = 300;

  @Doc('Seconds behind "now" a run stops reading, for sources that commit late.', { type: 'integer >= 0' })
  @ToNumber() @IntRange(0)
  lag_seconds = 0;

  @Doc('Delete managers of the service that are gone from the source.', { type: 'boolean' })
  @ToBoolean() @Flag()
  delete_missing_managers = true;

  @Doc('Overrides tracker.batch_size for this connection.', { type: 'integer 1..10000' })
  @IsOptional() @ToNumber() @IntRange(1, 10000)
  batch_size?: number;
}

export class ConnectionConfig {
  @Doc('Unique name of the connection (letters, digits, "-", "_").', { type: 'string' })
  @Matches(CONNECTION_ID, 'must start with a letter or digit and contain only letters, digits, "-" and "_"')
  id: string;

  @Doc('Connector name: a built-in (generic-crm, spreadsheet, ...) or a plugin.', { type: 'string' })
  @Text()
  connector: string;

  @Doc('The project (a name under `projects:`) this connection feeds; absent = the `tracker:` project.', { type: 'string' })
  @IsOptional() @EmptyAsAbsent() @Matches(PROJECT_NAME, 'must be the name of a project under projects: (letters, digits, "-", "_")')
  project?: string;

  @Doc('Cron schedule (5 fields, or 6 with seconds first); absent = runs only when triggered.', { type: 'cron' })
  @IsOptional() @EmptyAsAbsent() @CronSchedule()
  schedule?: string;

  @Doc('Scheduled runs are skipped while paused.', { type: 'boolean' })
  @ToBoolean() @Flag()
  paused = false;

  @Doc('Run once when the daemon starts.', { type: 'boolean' })
  @ToBoolean() @Flag()
  run_on_start = false;

  @Doc('How deals get status ids the project knows: "map" sends what settings.status_map maps the CRM\'s stages to; "register" defines the CRM\'s own stages (names, groups) in the project with set-statuses before each run\'s deals and sends them as they are (README "Deal statuses").', {
    type: '"map" | "register"',
  })
  @ToLowerCase() @OneOf(STATUS_MODES)
  statuses: StatusMode = 'map';

  @Doc("The connector's settings (validated by the connector).", { type: 'mapping' })
  @Mapping()
  settings: Record<string, unknown> = {};

  @Doc('Cursor and diff options of this connection.', { type: 'mapping', nested: () => SyncOptionsConfig })
  @Mapping() @ValidateNested() @Type(() => SyncOptionsConfig)
  sync: SyncOptionsConfig = new SyncOptionsConfig();

  @Doc('CRM webhooks: POST /hooks/{id} starts an incremental run within `debounce` of a burst of calls; absent = the connection takes no webhook.', {
    type: 'mapping',
    nested: () => WebhookConfig,
  })
  @IsOptional() @Mapping() @ValidateNested() @Type(() => WebhookConfig)
  webhook?: WebhookConfig;
}

export class TrackerSyncConfig {
  @Doc('Admin API listener.', { type: 'mapping', nested: () => ServerConfig })
  @Mapping() @ValidateNested() @Type(() => ServerConfig)
  server: ServerConfig = new ServerConfig();

  @Doc('Folder of the SQLite store and generated files (env DATA_DIR), relative to the working directory.', { type: 'path' })
  @Text()
  data_dir = './data';

  @Doc('The service the daemon feeds.', { type: 'mapping', nested: () => TrackerConfig })
  @Mapping() @ValidateNested() @Type(() => TrackerConfig)
  tracker: TrackerConfig = new TrackerConfig();

  @Doc('More projects of the service fed by this installation, by a name of your choosing (letters, digits, "-", "_"); a connection names its project with `project:`.', {
    type: 'mapping of name → project',
    nested: () => ProjectConfig,
    map: true,
  })
  @Transform(({ value }) => projectsValue(value))
  @Mapping()
  projects: Record<string, ProjectConfig> = {};

  @Doc('The embedded sandbox, used when tracker.base_url is absent.', { type: 'mapping', nested: () => SandboxConfig })
  @Mapping() @ValidateNested() @Type(() => SandboxConfig)
  sandbox: SandboxConfig = new SandboxConfig();

  @Doc('Admin API access.', { type: 'mapping', nested: () => AdminConfig })
  @Mapping() @ValidateNested() @Type(() => AdminConfig)
  admin: AdminConfig = new AdminConfig();

  @Doc('Logging.', { type: 'mapping', nested: () => LogConfig })
  @Mapping() @ValidateNested() @Type(() => LogConfig)
  log: LogConfig = new LogConfig();

  @Doc("The daemon's own database.", { type: 'mapping', nested: () => StoreConfig })
  @Mapping() @ValidateNested() @Type(() => StoreConfig)
  store: StoreConfig = new StoreConfig();

  @Doc('How the scheduler starts runs.', { type: 'mapping', nested: () => SchedulerConfig })
  @Mapping() @ValidateNested() @Type(() => SchedulerConfig)
  scheduler: SchedulerConfig = new SchedulerConfig();

  @Doc('Several daemons on one PostgreSQL store, sharing runs, schedules and budgets through Redis (docs/cluster.md).', { type: 'mapping', nested: () => ClusterConfig })
  @Mapping() @ValidateNested() @Type(() => ClusterConfig)
  cluster: ClusterConfig = new ClusterConfig();

  @Doc('Extra folders searched for connector plugins.', { type: 'list of paths' })
  @TextList()
  connector_paths: string[] = [];

  @Doc('The connections to sync.', { type: 'list', nested: () => ConnectionConfig, list: true })
  @List() @ValidateNested({ each: true }) @Type(() => ConnectionConfig)
  connections: ConnectionConfig[] = [];

  @Doc('Where a broken sync is reported (failed runs, no success for a while, shares of bad data).', {
    type: 'list',
    nested: () => AlertConfig,
    list: true,
  })
  @List() @ValidateNested({ each: true }) @Type(() => AlertConfig)
  alerts: AlertConfig[] = [];
}

/**
 * A connection's sync options with the defaults above filling what a config built by hand (tests, benches)
 * leaves out: the defaults live in the schema alone, callers never repeat them.
 */
export function syncOptionsOf(connection: Pick<ConnectionConfig, 'sync'>): SyncOptionsConfig {
  return connection.sync instanceof SyncOptionsConfig ? connection.sync : Object.assign(new SyncOptionsConfig(), connection.sync);
}

/** The `tracker` section with the schema's defaults filling what a config built by hand leaves out. */
export function trackerOptionsOf(config: Pick<TrackerSyncConfig, 'tracker'>): TrackerConfig {
  return config.tracker instanceof TrackerConfig ? config.tracker : Object.assign(new TrackerConfig(), config.tracker);
}
