import { ordersWithVisits } from '../../../../src/engine/outbound/flows/write-back/order-pages';
import { DEFAULT_RATE_LIMIT } from '../../../../src/tracker/http/rate-limits';
import { formatTrackerDate } from '../../../../src/tracker/tracker-date';
import { TrackerClient } from '../../../../src/tracker/tracker-client';
import { ServiceCallRecorder } from '../../../e2e/service-call-recorder';
import { SandboxHarness } from '../../../sandbox/sandbox-harness';

/**
 * The order list read by a write-back pass, against the sandbox (demo visits) through a call recorder: a first
 * page of 99 tells the total, the rest comes in the tier that reads it soonest; orders older than the window stay out.
 */
describe('the orders of a write-back window, paged', () => {
  let sandbox: SandboxHarness;
  let recorder: ServiceCallRecorder;
  let tracker: TrackerClient;
  const now = Date.now();

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
    recorder = await ServiceCallRecorder.start(sandbox.baseUrl);
    tracker = new TrackerClient({ baseUrl: recorder.url, apiKey: sandbox.apiKey, project: String(sandbox.projectId), rateLimit: DEFAULT_RATE_LIMIT, retries: 1, timeoutMs: 10_000 });
    const order = (n: number, hoursAgo: number) => ({ id: `o${n}`, date_create: formatTrackerDate(new Date(now - hoursAgo * 3_600_000)), tracker: String(1_000_001 + n) });
    const recent = Array.from({ length: 150 }, (_, n) => order(n, 1 + n / 100));
    await tracker.orders.addBatch([...recent, order(500, 24 * 40)]); // one order 40 days back
  });
  afterAll(async () => {
    await tracker.close();
    await recorder.close();
    await sandbox.app.close();
  });

  it('reads 99, then the remaining 51 in one request of the next tier, with their visits', async () => {
    const pages: string[][] = [];
    for await (const orders of ordersWithVisits(tracker, new Date(now - 30 * 86_400_000), undefined, 'connection c')) {
      pages.push(orders.map((o) => o.id));
      for (const o of orders) expect([o.id, o.visit?.id]).toEqual([o.id, String(1_000_001 + Number(o.id.slice(1)))]);
    }
    expect(pages.map((p) => p.length)).toEqual([99, 51]);
    expect(new Set(pages.flat()).size).toBe(150);
    expect(pages.flat()).not.toContain('o500');
    const lists = recorder.calls.filter((c) => c.path.endsWith('/project/integration/order/list'));
    expect(lists.map((c) => [c.body.limit, c.body.offset, c.body.extend])).toEqual([[99, 0, ['visit']], [999, 99, ['visit']]]);
    expect(lists[1].at - lists[0].at).toBeLessThan(3_000); // a fresh tier: no wait for the first one's 6 s
  });
});
