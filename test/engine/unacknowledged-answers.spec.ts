import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

/**
 * A 2xx answer is an acknowledgement only when it is the service's: `"status": "success"` for a write (the
 * specification's general rule 5). A proxy's maintenance page, a web app's index.html at a wrong base_url or an
 * empty body in its place took nothing: the run fails saying so, no record is marked delivered, and the next run
 * sends them all.
 */
describe('engine: an answer that is not the service\'s acknowledges nothing', () => {
  let h: EngineHarness;

  afterEach(async () => {
    await h?.stop();
  });

  it.each([
    ['an HTML page with HTTP 200 to add-orders', '/project/add-orders', { status: 200, html: '<html><body>Maintenance</body></html>' }, /not the service's JSON/],
    ['an empty JSON object with HTTP 200 to add-orders', '/project/add-orders', { status: 200, body: {} }, /does not acknowledge the request \(no "status": "success"\)/],
    ['an HTML page with HTTP 200 to clients/import', '/project/clients/import', { status: 200, html: '<!doctype html><title>App</title>' }, /not the service's JSON/],
  ] as const)('%s: the run fails, nothing is kept as delivered, the next run sends everything', async (_what, path, answer, message) => {
    h = await new EngineHarness({ batchSize: 10, retries: 1 }).start();
    h.source.clients = [{ id: 'c1', name: 'Client', phones: ['+79000000001'], updated_at: new Date('2025-03-01T00:00:00Z') }];
    h.source.deals = makeDeals(20);
    h.service.script = (call) => (call.path === path ? (answer as never) : undefined);

    const failed = await h.run();
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(message);
    const stream = path.endsWith('add-orders') ? 'deals' : 'clients';
    expect(await h.query(`SELECT COUNT(*) AS n FROM record_state WHERE stream = ?`, [stream])).toEqual([{ n: 0 }]);

    h.service.script = null;
    const next = await h.run();
    expect(next.status).toBe('succeeded');
    expect(h.service.orders.size).toBe(20);
    expect(h.service.clients.size).toBe(1);
  });
});
