import { MetricsService } from '../../src/observability/metrics.service';

describe('metrics of lead-delivery runs', () => {
  it('count the proxy leads of each pass by outcome, per connection, under the flow\'s metric', async () => {
    const metrics = new MetricsService();
    const pass = (created: number, attached: number) => ({
      connectionId: 'amo', status: 'succeeded', streams: {}, counters: {}, direction: 'outbound', flow: 'leads',
      flowCounters: { found: 5, created, attached, already_delivered: 5 - created - attached, rejected: 0 },
    });
    metrics.observeRun(pass(2, 1) as never);
    metrics.observeRun(pass(0, 0) as never);
    const text = await metrics.text();
    expect(text).toContain('# HELP tracker_sync_leads_total Proxy leads of lead-delivery runs');
    expect(text).toContain('tracker_sync_leads_total{connection="amo",outcome="found"} 10');
    expect(text).toContain('tracker_sync_leads_total{connection="amo",outcome="created"} 2');
    expect(text).toContain('tracker_sync_leads_total{connection="amo",outcome="attached"} 1');
    expect(text).toContain('tracker_sync_leads_total{connection="amo",outcome="already_delivered"} 7');
    expect(text).toContain('tracker_sync_leads_total{connection="amo",outcome="rejected"} 0');
    expect(text).not.toContain('tracker_sync_write_back_deals_total{connection="amo"');
  });
});
