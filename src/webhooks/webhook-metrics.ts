import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsService } from '../observability/metrics.service';

export const WEBHOOK_OUTCOMES = ['accepted', 'refused', 'too_large', 'rate_limited', 'paused'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** tracker_sync_webhooks_total{connection,outcome}, on the daemon's one registry (/metrics). */
@Injectable()
export class WebhookMetrics {
  private readonly calls: Counter<'connection' | 'outcome'>;

  constructor(metrics: MetricsService) {
    const existing = metrics.registry.getSingleMetric('tracker_sync_webhooks_total') as Counter<'connection' | 'outcome'> | undefined;
    this.calls = existing ?? new Counter({
      name: 'tracker_sync_webhooks_total',
      help: 'Webhook calls (POST /hooks/{connection}) by connection and outcome (accepted, refused, too_large, rate_limited, paused)',
      labelNames: ['connection', 'outcome'],
      registers: [metrics.registry],
    });
  }

  count(connectionId: string, outcome: WebhookOutcome): void {
    this.calls.inc({ connection: connectionId, outcome });
  }
}
