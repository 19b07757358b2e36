import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsService } from '../observability/metrics.service';

export const WEBHOOK_OUTCOMES = ['accepted', 'refused', 'too_large', 'rate_limited', 'paused'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** tracker_sync_webhooks_total{connection,outcome} (and project, where the config names projects), on the daemon's one registry (/metrics). */
@Injectable()
export class WebhookMetrics {
  private readonly calls: Counter<'project' | 'connection' | 'outcome'>;

  constructor(private readonly metrics: MetricsService) {
    const existing = metrics.registry.getSingleMetric('tracker_sync_webhooks_total') as Counter<'project' | 'connection' | 'outcome'> | undefined;
    this.calls = existing ?? new Counter({
      name: 'tracker_sync_webhooks_total',
      help: 'Webhook calls (POST /hooks/{connection}) by connection and outcome (accepted, refused, too_large, rate_limited, paused)',
      labelNames: ['project', 'connection', 'outcome'],
      registers: [metrics.registry],
    });
  }

  count(connectionId: string, outcome: WebhookOutcome): void {
    this.calls.inc({ ...this.metrics.connectionLabels(connectionId), outcome });
  }
}
