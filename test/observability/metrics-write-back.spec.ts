import { MetricsService } from '../../src/observability/metrics.service';

describe('metrics of write-back runs', () => {
  it('count the deals of each pass by outcome, per connection', async () => {
    const metrics = new MetricsService();
    const pass = (written: number) => ({
      connectionId: 'amocrm', status: 'succeeded', streams: {}, counters: {},
      writeBack: { attributed: 10, written, unchanged: 10 - written, rejected: 0 },
    });
    metrics.observeRun(pass(3));
    metrics.observeRun(pass(1));
    metrics.observeRun({ connectionId: 'sheet', status: 'succeeded', streams: {}, counters: {} }); // a sync: no series
    const text = await metrics.text();
    expect(text).toContain('tracker_sync_write_back_deals_total{connection="amocrm",outcome="attributed"} 20');
    expect(text).toContain('tracker_sync_write_back_deals_total{connection="amocrm",outcome="written"} 4');
    expect(text).toContain('tracker_sync_write_back_deals_total{connection="amocrm",outcome="unchanged"} 16');
    expect(text).toContain('tracker_sync_write_back_deals_total{connection="amocrm",outcome="rejected"} 0');
    expect(text).not.toContain('tracker_sync_write_back_deals_total{connection="sheet"');
  });
});
