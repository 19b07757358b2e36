import { TrackerHttp, TrackerLogger, TrackerRequestEvent } from './http/tracker-http';
import { DEFAULT_RATE_LIMIT, RateLimitBudget } from './http/rate-limits';
import type { RequestBudget } from './http/request-budget';
import { BillingClient } from './sections/billing.client';
import { CalltrackingClient } from './sections/calltracking.client';
import { ChannelsClient } from './sections/channels.client';
import { ClientsClient } from './sections/clients.client';
import { DashboardsClient } from './sections/dashboards.client';
import { EmailtrackingClient } from './sections/emailtracking.client';
import { EventsClient } from './sections/events.client';
import { LeadsClient } from './sections/leads.client';
import { ManagersClient } from './sections/managers.client';
import { MediaplansClient } from './sections/mediaplans.client';
import { OrdersClient } from './sections/orders.client';
import { ProjectsClient } from './sections/projects.client';
import { ProxyLeadsClient } from './sections/proxy-leads.client';
import { SpeechClient } from './sections/speech.client';
import { VisitsClient } from './sections/visits.client';

export interface TrackerClientOptions {
  /** Ends with the version segment, e.g. 'https://host/api/v1'. */
  baseUrl: string;
  apiKey: string;
  /** Project number; required by every project-scoped operation. */
  project?: string;
  /** Where the config sets the key and project (e.g. `projects.acme`), named when the service refuses them; default `tracker`. */
  configKey?: string;
  timeoutMs?: number;
  /** Retries after the first attempt (default 5). */
  retries?: number;
  /** Project-wide budget (default 8/s, 4000/h); 'off' disables every client-side limit. */
  rateLimit?: RateLimitBudget | 'off';
  /** Where the budget is drawn from when other processes share it (the daemon's store); ignored when 'off'. */
  budget?: RequestBudget;
  /** Backoff base in ms (default 500). */
  retryBaseMs?: number;
  logger?: TrackerLogger;
  /** Called after every HTTP attempt (metrics). */
  onRequest?: (event: TrackerRequestEvent) => void;
  /** What names the service in `target` when its URL does not (the embedded sandbox, whose port changes at each start); default the base URL. */
  service?: string;
}

/** The typed client of the service: one sub-client per section of the specification. */
export class TrackerClient {
  readonly orders: OrdersClient;
  readonly channels: ChannelsClient;
  readonly calltracking: CalltrackingClient;
  readonly clients: ClientsClient;
  readonly mediaplans: MediaplansClient;
  readonly speech: SpeechClient;
  readonly visits: VisitsClient;
  readonly emailtracking: EmailtrackingClient;
  readonly leads: LeadsClient;
  readonly proxyLeads: ProxyLeadsClient;
  readonly events: EventsClient;
  readonly managers: ManagersClient;
  readonly projects: ProjectsClient;
  readonly billing: BillingClient;
  readonly dashboards: DashboardsClient;

  /** The project-wide budget this client keeps to ('off': none), for callers that plan what a read will cost. */
  readonly rateLimit: RateLimitBudget | 'off';

  /** The service and project this client sends to, e.g. `https://host/api/v1 project 12345` (no credentials): what a connection's store rows were sent to. */
  readonly target: string;

  private readonly http: TrackerHttp;

  /** The project number the client sends with (absent: the key's own), for messages that name the project. */
  get project(): string | undefined {
    return this.options.project;
  }

  constructor(private readonly options: TrackerClientOptions) {
    if (!options.baseUrl) throw new Error('tracker client: baseUrl is required');
    this.rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.target = `${options.service ?? withoutCredentials(options.baseUrl)} project ${options.project ?? '(the key\'s own)'}`;
    this.http = new TrackerHttp({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      project: options.project,
      configKey: options.configKey,
      timeoutMs: options.timeoutMs ?? 30_000,
      retries: options.retries ?? 5,
      retryBaseMs: options.retryBaseMs ?? 500,
      rateLimit: this.rateLimit,
      budget: options.budget,
      logger: options.logger,
      onRequest: options.onRequest,
    });
    this.orders = new OrdersClient(this.http);
    this.clients = new ClientsClient(this.http);
    this.channels = new ChannelsClient(this.http);
    this.calltracking = new CalltrackingClient(this.http);
    this.mediaplans = new MediaplansClient(this.http);
    this.speech = new SpeechClient(this.http);
    this.visits = new VisitsClient(this.http);
    this.emailtracking = new EmailtrackingClient(this.http);
    this.leads = new LeadsClient(this.http);
    this.proxyLeads = new ProxyLeadsClient(this.http);
    this.events = new EventsClient(this.http);
    this.managers = new ManagersClient(this.http);
    this.projects = new ProjectsClient(this.http);
    this.billing = new BillingClient(this.http);
    this.dashboards = new DashboardsClient(this.http);
  }

  /**
   * A client of another target (another project, key or URL) with this one's timeout, retries and hooks; it
   * shares no budget with this one (`changes` says what it keeps to instead). The caller closes it.
   */
  withTarget(target: Partial<Pick<TrackerClientOptions, 'baseUrl' | 'apiKey' | 'project'>>, changes: Partial<TrackerClientOptions> = {}): TrackerClient {
    const base = { ...this.options, budget: undefined };
    return new TrackerClient({ ...base, ...changes, baseUrl: target.baseUrl ?? base.baseUrl, apiKey: target.apiKey ?? base.apiKey, project: target.project ?? base.project });
  }

  /** Releases keep-alive sockets and stops the limiters (waiting calls are dropped). */
  close(): Promise<void> {
    return this.http.close();
  }

  /** Nest calls this when the module shuts down. */
  onModuleDestroy(): Promise<void> {
    return this.close();
  }
}

/** A base URL as a name: without user and password, without a trailing slash. */
function withoutCredentials(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return baseUrl.replace(/\/+$/, '');
  }
}
