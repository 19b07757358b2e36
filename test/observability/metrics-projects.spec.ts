/** /metrics of an installation with projects: each connection's series, the requests' and the budgets' carry the project. */
import { validateConfig } from '../../src/config';
import { MetricsService } from '../../src/observability/metrics.service';
import { WebhookMetrics } from '../../src/webhooks/webhook-metrics';

const run = (connectionId: string) => ({
  connectionId, status: 'succeeded', counters: { uploaded: 2 },
  streams: { deals: { read: 2, sent: 2, unchanged: 0, rejected: 0 } },
});

describe('metrics by project', () => {
  it('labels the series of a connection, a request and a budget with its project', async () => {
    const config = validateConfig({
      sandbox: { projects: 2 },
      projects: { acme: { project: '2' } },
      connections: [{ id: 'acme-amo', connector: 'spreadsheet', project: 'acme' }, { id: 'own', connector: 'spreadsheet' }],
    }, { env: {} });
    const metrics = new MetricsService(config);
    metrics.observeRun(run('acme-amo'));
    metrics.observeRun(run('own'));
    metrics.observeTick('acme-amo', 'sync', 'started');
    metrics.observeRequest({ operation: 'ordersAdd', status: 429, durationMs: 5, retry: true, project: 'acme' });
    new WebhookMetrics(metrics).count('acme-amo', 'accepted');
    metrics.watchBudgets(() => [{ project: 'acme', waiting: 1, waitSecondsTotal: 2, remaining: { hour: 3999, second: 7 } }]);
    const text = await metrics.text();
    expect(text).toContain('tracker_sync_runs_total{project="acme",connection="acme-amo",status="succeeded"} 1');
    expect(text).toContain('tracker_sync_runs_total{project="default",connection="own",status="succeeded"} 1');
    expect(text).toContain('tracker_sync_records_total{project="acme",connection="acme-amo",stream="deals",outcome="sent"} 2');
    expect(text).toContain('tracker_sync_service_counter_total{project="acme",connection="acme-amo",counter="uploaded"} 2');
    expect(text).toContain('tracker_sync_schedule_ticks_total{project="acme",connection="acme-amo",flow="sync",outcome="started"} 1');
    expect(text).toContain('tracker_sync_rate_limited_total{project="acme",operation="ordersAdd"} 1');
    expect(text).toContain('tracker_sync_webhooks_total{project="acme",connection="acme-amo",outcome="accepted"} 1');
    expect(text).toContain('tracker_sync_budget_remaining{project="acme",window="hour"} 3999');
    expect(text).toContain('tracker_sync_budget_waiting_requests{project="acme"} 1');
  });

  it('keeps the series of an installation of the tracker: project alone as they were', async () => {
    const metrics = new MetricsService(validateConfig({ connections: [{ id: 'own', connector: 'spreadsheet' }] }, { env: {} }));
    metrics.observeRun(run('own'));
    metrics.watchBudgets(() => [{ project: 'default', waiting: 0, waitSecondsTotal: 0, remaining: { hour: 4000, second: 8 } }]);
    const text = await metrics.text();
    expect(text).toContain('tracker_sync_runs_total{connection="own",status="succeeded"} 1');
    expect(text).toContain('tracker_sync_budget_remaining{window="hour"} 4000');
  });
});
