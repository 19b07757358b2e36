import { Injectable, Optional } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { TrackerSyncConfig } from '../config/config.schema';
import { DEFAULT_PROJECT, projectNameOf } from '../config/project-targets';
import { counterNamesOf, isOutboundFlow, OUTBOUND_FLOW_NAMES, OUTBOUND_FLOWS, OutboundFlowName } from '../engine';

/** What the metrics need of a finished run (structurally the engine's RunSummary). */
export interface RunOutcome {
  connectionId: string;
  status: string;
  streams: Partial<Record<string, { read: number; sent: number; unchanged: number; rejected: number; sent_without_visit?: number; uncertain?: number }>>;
  /** the service's add-orders counters (an interface such as ServiceCounters fits) */
  counters: object;
  /** an outbound run's flow and its counters (named by the flow's description, in its folder under src/engine/outbound/flows/) */
  flow?: string | null;
  flowCounters?: object;
  /** a write-back run's counters (flow write_back), as write-back runs always reported them */
  writeBack?: object;
}

/** What the typed client reports per HTTP attempt (TrackerClientOptions.onRequest). */
export interface RequestOutcome {
  operation: string;
  status: number | 'network';
  durationMs: number;
  retry: boolean;
  /** the project whose client sent it */
  project?: string;
}

/** What the shared request budget tells of itself (structurally the store's RequestBudgetStats). */
export interface BudgetOutcome {
  /** the project whose budget it is (absent: the `tracker:` project) */
  project?: string;
  waiting: number;
  waitSecondsTotal: number;
  remaining: { hour: number; second: number };
}

const RECORD_OUTCOMES = ['read', 'sent', 'unchanged', 'rejected', 'sent_without_visit', 'uncertain'] as const;

/** Prometheus metrics, all prefixed tracker_sync_, served at /metrics. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly runs = new Counter({
    name: 'tracker_sync_runs_total',
    help: 'Finished runs by connection and status',
    labelNames: ['project', 'connection', 'status'],
    registers: [this.registry],
  });
  private readonly records = new Counter({
    name: 'tracker_sync_records_total',
    help: 'Records by connection, stream and outcome (read, sent, unchanged, rejected, sent_without_visit, uncertain)',
    labelNames: ['project', 'connection', 'stream', 'outcome'],
    registers: [this.registry],
  });
  /** per outbound flow, its items by connection and outcome (a counter of its description each): the flow's metric */
  private readonly flowItems = Object.fromEntries(
    OUTBOUND_FLOW_NAMES.map((flow) => [
      flow,
      new Counter({ ...OUTBOUND_FLOWS[flow].metric, labelNames: ['project', 'connection', 'outcome'], registers: [this.registry] }),
    ]),
  ) as Record<OutboundFlowName, Counter<'project' | 'connection' | 'outcome'>>;
  private readonly serviceCounters = new Counter({
    name: 'tracker_sync_service_counter_total',
    help: "The service's add-orders counters (uploaded, saved, skipped_*) summed by connection",
    labelNames: ['project', 'connection', 'counter'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'tracker_sync_request_duration_seconds',
    help: 'Latency of requests to the service by operation',
    labelNames: ['project', 'operation'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly retries = new Counter({
    name: 'tracker_sync_request_retries_total',
    help: 'Requests to the service that were retried, by operation',
    labelNames: ['project', 'operation'],
    registers: [this.registry],
  });
  private readonly throttled = new Counter({
    name: 'tracker_sync_rate_limited_total',
    help: 'Answers 429 (Too Many Requests) from the service, by operation',
    labelNames: ['project', 'operation'],
    registers: [this.registry],
  });

  private readonly alertsSent = new Counter({
    name: 'tracker_sync_alerts_sent_total',
    help: 'Alert messages delivered, by event (run_failed, recovered, ..., test) and channel type',
    labelNames: ['event', 'type'],
    registers: [this.registry],
  });
  private readonly alertsFailed = new Counter({
    name: 'tracker_sync_alerts_failed_total',
    help: 'Alert messages given up after their last attempt (or dropped while too many were pending)',
    registers: [this.registry],
  });

  private readonly scheduleTicks = new Counter({
    name: 'tracker_sync_schedule_ticks_total',
    help: 'Scheduled ticks by connection, flow (sync or an outbound flow) and outcome: started, queued (behind the run going), skipped (a run of the flow was already waiting), taken (another daemon ran it), failed (could not start a run: the store or the queue refused it)',
    labelNames: ['project', 'connection', 'flow', 'outcome'],
    registers: [this.registry],
  });
  private readonly scheduleWait = new Histogram({
    name: 'tracker_sync_schedule_wait_seconds',
    help: 'How long a scheduled tick waited for its run to start, by connection and flow',
    labelNames: ['project', 'connection', 'flow'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 900],
    registers: [this.registry],
  });

  /** the projects' request budgets (rate_limit of each), read at each scrape; none when every rate_limit is off */
  private budgets: () => BudgetOutcome[] = () => [];
  private readonly budgetRemaining = new Gauge({
    name: 'tracker_sync_budget_remaining',
    help: "Requests left in the project's shared budget as this daemon last saw it: window hour (sliding hour) or second (send times free in the coming second)",
    labelNames: ['project', 'window'],
    registers: [this.registry],
    collect: () => {
      for (const stats of this.budgets()) {
        for (const window of ['hour', 'second'] as const) this.budgetRemaining.set({ ...this.projectLabel(stats.project), window }, stats.remaining[window]);
      }
    },
  });
  private readonly budgetWait = new Counter({
    name: 'tracker_sync_budget_wait_seconds_total',
    help: "Time this daemon's requests spent waiting for the project's shared budget (summed over requests)",
    labelNames: ['project'],
    registers: [this.registry],
    collect: () => {
      const all = this.budgets();
      if (all.length === 0) return;
      this.budgetWait.reset();
      for (const stats of all) this.budgetWait.inc(this.projectLabel(stats.project), stats.waitSecondsTotal);
    },
  });
  private readonly budgetWaiting = new Gauge({
    name: 'tracker_sync_budget_waiting_requests',
    help: "Requests of this daemon waiting for the project's shared budget now",
    labelNames: ['project'],
    registers: [this.registry],
    collect: () => {
      for (const stats of this.budgets()) this.budgetWaiting.set(this.projectLabel(stats.project), stats.waiting);
    },
  });

  /** cluster mode: the runs queue's jobs by state, read at each scrape (src/cluster/runs-queue-view.ts) */
  private queueCounts: { queue: string; read: () => Promise<Record<string, number>> } | null = null;
  private readonly queueJobs = new Gauge({
    name: 'tracker_sync_queue_jobs',
    help: 'Jobs of the cluster queue by state (waiting, active, delayed, failed) as Redis holds them at the scrape; absent without cluster.redis',
    labelNames: ['queue', 'state'],
    registers: [this.registry],
    collect: async () => {
      if (!this.queueCounts) return;
      this.queueJobs.reset();
      // Redis away: no series rather than stale ones (tracker_sync_redis_up says 0, /health names Redis)
      const counts = await this.queueCounts.read().catch(() => null);
      if (counts) for (const [state, value] of Object.entries(counts)) this.queueJobs.set({ queue: this.queueCounts.queue, state }, value);
    },
  });
  /** cluster mode: whether the cluster's Redis answers, asked at each scrape (the health check's own client) */
  private redisProbe: (() => Promise<boolean>) | null = null;
  private readonly redisUp = new Gauge({
    name: 'tracker_sync_redis_up',
    help: "Cluster mode: 1 while the cluster's Redis (cluster.redis) answers a PING at the scrape, 0 while it does not (the schedules do not fire, the queue's series are absent); absent without cluster.redis",
    registers: [this.registry],
    collect: async () => {
      if (!this.redisProbe) return;
      this.redisUp.set((await this.redisProbe().catch(() => false)) ? 1 : 0);
    },
  });
  private readonly queueStalled = new Counter({
    name: 'tracker_sync_queue_stalled_jobs_total',
    help: "Jobs of the cluster queue BullMQ found stalled (their daemon stopped renewing the lock) since this daemon started, whichever daemon held them",
    labelNames: ['queue'],
    registers: [this.registry],
  });

  /** The config tells each connection's project; without it (a bare MetricsService) no series has a project label. */
  constructor(@Optional() private readonly config?: TrackerSyncConfig) {
    collectDefaultMetrics({ register: this.registry, prefix: 'tracker_sync_' });
  }

  observeRun(run: RunOutcome): void {
    const labels = this.connectionLabels(run.connectionId);
    this.runs.inc({ ...labels, status: run.status });
    for (const [stream, c] of Object.entries(run.streams)) {
      if (!c) continue;
      for (const outcome of RECORD_OUTCOMES) {
        // zeros too: a series that exists at 0 is what alerts and rate() need
        this.records.inc({ ...labels, stream, outcome }, c[outcome] ?? 0);
      }
    }
    for (const [counter, value] of Object.entries(run.counters) as [string, number | undefined][]) {
      this.serviceCounters.inc({ ...labels, counter }, value ?? 0);
    }
    const flow = run.flow ?? (run.writeBack ? 'write_back' : null);
    const counters = (run.flowCounters ?? run.writeBack ?? {}) as Record<string, number | undefined>;
    if (flow && isOutboundFlow(flow)) {
      for (const outcome of counterNamesOf(flow)) this.flowItems[flow].inc({ ...labels, outcome }, counters[outcome] ?? 0);
    }
  }

  observeRequest(request: RequestOutcome): void {
    const labels = { ...this.projectLabel(request.project), operation: request.operation };
    this.latency.observe(labels, request.durationMs / 1000);
    if (request.retry) this.retries.inc(labels);
    if (request.status === 429) this.throttled.inc(labels);
  }

  /** Reports the projects' request budgets at every scrape. */
  watchBudgets(stats: () => BudgetOutcome[]): void {
    this.budgets = stats;
  }

  /** Cluster mode: reports the queue's jobs by state at every scrape; the stalled ones as BullMQ reports them. */
  watchQueue(queue: string, read: () => Promise<Record<string, number>>): void {
    this.queueCounts = { queue, read };
    this.queueStalled.inc({ queue }, 0);
  }

  /** Cluster mode: reports at every scrape whether Redis answers (tracker_sync_redis_up). */
  watchRedis(probe: () => Promise<boolean>): void {
    this.redisProbe = probe;
  }

  observeStalled(queue: string): void {
    this.queueStalled.inc({ queue });
  }

  observeTick(connection: string, flow: string, outcome: string): void {
    this.scheduleTicks.inc({ ...this.connectionLabels(connection), flow, outcome });
  }

  observeTickWait(connection: string, flow: string, seconds: number): void {
    this.scheduleWait.observe({ ...this.connectionLabels(connection), flow }, seconds);
  }

  observeAlertSent(event: string, type: string): void {
    this.alertsSent.inc({ event, type });
  }

  observeAlertFailed(): void {
    this.alertsFailed.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * A connection's series carry its project once the config names projects (`projects:`); an installation of the
   * `tracker:` project alone keeps its series as they were. Read at each use: a reload adds connections.
   */
  connectionLabels(connectionId: string): { project?: string; connection: string } {
    const connection = this.config?.connections?.find((c) => c.id === connectionId);
    return { ...this.projectLabel(connection ? projectNameOf(connection) : undefined), connection: connectionId };
  }

  private projectLabel(project: string | undefined): { project?: string } {
    return this.hasProjects() ? { project: project ?? DEFAULT_PROJECT } : {};
  }

  private hasProjects(): boolean {
    return Object.keys(this.config?.projects ?? {}).length > 0;
  }
}
