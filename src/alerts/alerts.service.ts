import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { AlertConfig, TrackerSyncConfig } from '../config';
import { redactUrl } from '../config/redact';
import { SyncService } from '../engine';
import { MetricsService } from '../observability/metrics.service';
import type { DeliveryFilter } from '../store/repositories/alert.store';
import { StoreRepositories } from '../store/store-repositories';
import { AlertDispatcher, DeliveryResult, DispatchOptions } from './alert-dispatcher';
import { AlertEvaluator, DEFAULT_CHECK_INTERVAL_MS } from './alert-evaluator';
import { alertScrubber } from './alert-secrets';
import { ALERTS_OPTIONS, AlertsOptions } from './alerts-options';

export { ALERTS_OPTIONS };
export type { AlertsOptions };

/** An alert as the admin API shows it: where it goes, without its secrets. */
export interface AlertTarget {
  id: string;
  type: string;
  /** the URL with credentials masked (webhook, slack: the host only, as the path often is the token), the chat, or the recipients */
  target: string;
  connections: string[];
  events: string[];
}

/** The daemon's alerts: the evaluator listening to the engine's runs, the dispatcher, and what the admin API asks of them. */
@Injectable()
export class AlertsService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly dispatcher: AlertDispatcher;
  readonly evaluator: AlertEvaluator;
  readonly statusUrl: string;
  private readonly logger = new Logger('Alerts');

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly store: StoreRepositories,
    private readonly sync: SyncService,
    metrics: MetricsService,
    @Optional() @Inject(ALERTS_OPTIONS) options: AlertsOptions | null,
  ) {
    const host = ['0.0.0.0', '::', ''].includes(config.server.host) ? '127.0.0.1' : config.server.host;
    this.statusUrl = options?.statusUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.server.port}/`;
    const scrub = alertScrubber(config);
    // every line scrubbed: an unexpected error (the store's, a channel's) may quote a URL with its token
    const logger = { log: (m: string) => this.logger.log(scrub(m)), warn: (m: string) => this.logger.warn(scrub(m)), error: (m: string) => this.logger.error(scrub(m)) };
    this.dispatcher = new AlertDispatcher(
      store.alerts,
      {
        logger,
        scrub,
        onSent: (event, type) => metrics.observeAlertSent(event, type),
        onFailed: () => metrics.observeAlertFailed(),
      },
      options?.dispatch,
    );
    this.evaluator = new AlertEvaluator(config.alerts ?? [], config.connections ?? [], store, this.dispatcher, logger, {
      checkIntervalMs: options?.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS,
      statusUrl: this.statusUrl,
    });
  }

  onApplicationBootstrap(): void {
    this.evaluator.start(this.sync.events);
  }

  async onModuleDestroy(): Promise<void> {
    await this.evaluator.stop();
    await this.dispatcher.stop(3000);
  }

  configured(): AlertTarget[] {
    return (this.config.alerts ?? []).map((alert) => ({
      id: alert.id, type: alert.type, target: targetOf(alert), connections: alert.connections, ...(alert.projects ? { projects: alert.projects } : {}), events: alert.events,
    }));
  }

  find(id: string): AlertConfig | undefined {
    return (this.config.alerts ?? []).find((alert) => alert.id === id);
  }

  /** Sends a test message through the alert's channel, once, and says how it went. */
  test(alert: AlertConfig): Promise<DeliveryResult> {
    return this.dispatcher.test(alert, {
      event: 'test', connection: null, run_id: null, counters: null, status_url: this.statusUrl, at: new Date().toISOString(),
      message: `test message of alert ${alert.id} (${alert.type}): alerts of tracker-sync reach this channel`,
    });
  }

  /** Whether the alert watches the connection now (not once the connection moved to another project than it was written for). */
  watches(alertId: string, connectionId: string): boolean {
    const alert = this.find(alertId);
    return !!alert && this.evaluator.watches(alert, connectionId);
  }

  /** The conditions active now: the store's, and those it could not record yet (kept by the evaluator). */
  active() {
    return this.evaluator.active();
  }

  deliveries(filter: DeliveryFilter, page: { limit: number; offset: number }) {
    return this.store.alerts.deliveries(filter, page);
  }
}

function targetOf(alert: AlertConfig): string {
  switch (alert.type) {
    case 'telegram':
      return `chat ${alert.chat_id}`;
    case 'email':
      return `${(alert.to ?? []).join(', ')} via ${redactUrl(alert.url ?? '')}`;
    default: {
      // Slack and many webhooks carry their token in the path: show where, not which
      try {
        const url = new URL(alert.url ?? '');
        return `${url.protocol}//${url.host}/***`;
      } catch {
        return '***';
      }
    }
  }
}
