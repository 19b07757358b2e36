import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { counterNamesOf, isOutboundFlow, OUTBOUND_FLOW_NAMES, OUTBOUND_FLOWS, OutboundFlowName } from '../runs/outbound-flows';

/** What the metrics need of a finished run (structurally the engine's RunSummary). */
export interface RunOutcome {
  connectionId: string;
  status: string;
  streams: Partial<Record<string, { read: number; sent: number; unchanged: number; rejected: number; sent_without_visit?: number; uncertain?: number }>>;
  /** the service's add-orders counters (an interface such as ServiceCounters fits) */
  counters: object;
  /** an outbound run's flow and its counters (named by the flow's description, src/runs/outbound-flows.ts) */
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
}

/** What the shared request budget tells of itself (structurally the store's RequestBudgetStats). */
export interface BudgetOutcome {
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
    labelNames: ['connection', 'status'],
    registers: [this.registry],
  });
  private readonly records = new Counter({
    name: 'tracker_sync_records_total',
    help: 'Records by connection, stream and outcome (read, sent, unchanged, rejected, sent_without_visit, uncertain)',
    labelNames: ['connection', 'stream', 'outcome'],
    registers: [this.registry],
  });
  /** per outbound flow, its items by connection and outcome (a counter of its description each): the flow's metric */
  private readonly flowItems = Object.fromEntries(
    OUTBOUND_FLOW_NAMES.map((flow) => [
      flow,
      new Counter({ ...OUTBOUND_FLOWS[flow].metric, labelNames: ['connection', 'outcome'], registers: [this.registry] }),
    ]),
  ) as Record<OutboundFlowName, Counter<'connection' | 'outcome'>>;
  private readonly serviceCounters = new Counter({
    name: 'tracker_sync_service_counter_total',
    help: "The service's add-orders counters (uploaded, saved, skipped_*) summed by connection",
    labelNames: ['connection', 'counter'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'tracker_sync_request_duration_seconds',
    help: 'Latency of requests to the service by operation',
    labelNames: ['operation'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly retries = new Counter({
    name: 'tracker_sync_request_retries_total',
    help: 'Requests to the service that were retried, by operation',
    labelNames: ['operation'],
    registers: [this.registry],
  });
  private readonly throttled = new Counter({
    name: 'tracker_sync_rate_limited_total',
    help: 'Answers 429 (Too Many Requests) from the service, by operation',
    labelNames: ['operation'],
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
    help: 'Scheduled ticks by connection, flow (sync or an outbound flow) and outcome: started, queued (behind the run going), skipped (a run of the flow was already waiting), taken (another daemon ran it)',
    labelNames: ['connection', 'flow', 'outcome'],
    registers: [this.registry],
  });
  private readonly scheduleWait = new Histogram({
    name: 'tracker_sync_schedule_wait_seconds',
    help: 'How long a scheduled tick waited for its run to start, by connection and flow',
    labelNames: ['connection', 'flow'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 900],
    registers: [this.registry],
  });

  /** the shared request budget (tracker.rate_limit), read at each scrape; absent when rate_limit is off */
  private budget: (() => BudgetOutcome) | null = null;
  private readonly budgetRemaining = new Gauge({
    name: 'tracker_sync_budget_remaining',
    help: "Requests left in the project's shared budget as this daemon last saw it: window hour (sliding hour) or second (send times free in the coming second)",
    labelNames: ['window'],
    registers: [this.registry],
    collect: () => {
      const stats = this.budget?.();
      if (stats) for (const window of ['hour', 'second'] as const) this.budgetRemaining.set({ window }, stats.remaining[window]);
    },
  });
  private readonly budgetWait = new Counter({
    name: 'tracker_sync_budget_wait_seconds_total',
    help: "Time this daemon's requests spent waiting for the project's shared budget (summed over requests)",
    registers: [this.registry],
    collect: () => {
      const stats = this.budget?.();
      if (!stats) return;
      this.budgetWait.reset();
      this.budgetWait.inc(stats.waitSecondsTotal);
    },
  });
  private readonly budgetWaiting = new Gauge({
    name: 'tracker_sync_budget_waiting_requests',
    help: "Requests of this daemon waiting for the project's shared budget now",
    registers: [this.registry],
    collect: () => {
      const stats = this.budget?.();
      if (stats) this.budgetWaiting.set(stats.waiting);
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
      // Redis away: no series rather than stale ones (/health names Redis)
      const counts = await this.queueCounts.read().catch(() => null);
      if (counts) for (const [state, value] of Object.entries(counts)) this.queueJobs.set({ queue: this.queueCounts.queue, state }, value);
    },
  });
  private readonly queueStalled = new Counter({
    name: 'tracker_sync_queue_stalled_jobs_total',
    help: "Jobs of the cluster queue BullMQ found stalled (their daemon stopped renewing the lock) since this daemon started, whichever daemon held them",
    labelNames: ['queue'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tracker_sync_' });
  }

  observeRun(run: RunOutcome): void {
    this.runs.inc({ connection: run.connectionId, status: run.status });
    for (const [stream, c] of Object.entries(run.streams)) {
      if (!c) continue;
      for (const outcome of RECORD_OUTCOMES) {
        // zeros too: a series that exists at 0 is what alerts and rate() need
        this.records.inc({ connection: run.connectionId, stream, outcome }, c[outcome] ?? 0);
      }
    }
    for (const [counter, value] of Object.entries(run.counters) as [string, number | undefined][]) {
      this.serviceCounters.inc({ connection: run.connectionId, counter }, value ?? 0);
    }
    const flow = run.flow ?? (run.writeBack ? 'write_back' : null);
    const counters = (run.flowCounters ?? run.writeBack ?? {}) as Record<string, number | undefined>;
    if (flow && isOutboundFlow(flow)) {
      for (const outcome of counterNamesOf(flow)) this.flowItems[flow].inc({ connection: run.connectionId, outcome }, counters[outcome] ?? 0);
    }
  }

  observeRequest(request: RequestOutcome): void {
    this.latency.observe({ operation: request.operation }, request.durationMs / 1000);
    if (request.retry) this.retries.inc({ operation: request.operation });
    if (request.status === 429) this.throttled.inc({ operation: request.operation });
  }

  /** Reports the shared request budget at every scrape. */
  watchBudget(stats: () => BudgetOutcome): void {
    this.budget = stats;
  }

  /** Cluster mode: reports the queue's jobs by state at every scrape; the stalled ones as BullMQ reports them. */
  watchQueue(queue: string, read: () => Promise<Record<string, number>>): void {
    this.queueCounts = { queue, read };
    this.queueStalled.inc({ queue }, 0);
  }

  observeStalled(queue: string): void {
    this.queueStalled.inc({ queue });
  }

  observeTick(connection: string, flow: string, outcome: string): void {
    this.scheduleTicks.inc({ connection, flow, outcome });
  }

  observeTickWait(connection: string, flow: string, seconds: number): void {
    this.scheduleWait.observe({ connection, flow }, seconds);
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
}
