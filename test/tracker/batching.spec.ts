import { AddOrder, TrackerApiError, TrackerClient } from '../../src/tracker';
import { RecordedRequest, ScriptedServer } from './scripted-server';

/** The service's answer to one add-orders batch: counters derived from the batch. */
function addOrdersAnswer(req: RecordedRequest) {
  const orders = req.body as AddOrder[];
  return {
    body: {
      status: 'success',
      uploaded: orders.length,
      processed: orders.length,
      skipped_by_status: 1,
      skipped_by_waiting_visit_info: 0,
      skipped_by_internal_error: 0,
      skipped_because_not_changed: 2,
      skipped_by_invalid_format: 0,
      skipped_fields_by_invalid_format: 0,
      saved: orders.length - 3,
      comment: `batch starting ${orders[0].id}`,
    },
  };
}

describe('batching of add-orders and clients import', () => {
  let server: ScriptedServer;
  let client: TrackerClient;

  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  beforeEach(() => {
    server.reset();
    client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1', rateLimit: 'off', retries: 0, batchSize: 500 });
  });
  afterEach(() => client.close());
  afterAll(() => server.close());

  const orders = (n: number): AddOrder[] => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, price: '10' }));

  it('splits 1,234 orders into 3 requests of 500, 500, 234 and sums the counters', async () => {
    server.respondWith(addOrdersAnswer);
    const result = await client.orders.add(orders(1234));
    expect(server.requests.map((r) => (r.body as unknown[]).length).sort()).toEqual([234, 500, 500]);
    const allIds = server.requests.flatMap((r) => (r.body as AddOrder[]).map((o) => o.id));
    expect(new Set(allIds).size).toBe(1234);
    expect(result).toMatchObject({ uploaded: 1234, processed: 1234, skipped_by_status: 3, skipped_because_not_changed: 6, saved: 1225, failedBatches: 0 });
    expect(result.batches.map((b) => [b.index, b.offset, b.size])).toEqual([
      [0, 0, 500],
      [1, 500, 500],
      [2, 1000, 234],
    ]);
    expect(result.comments).toEqual(['batch starting o0', 'batch starting o500', 'batch starting o1000']);
  });

  it('reports a failed batch without losing the others', async () => {
    server.respondWith((req) =>
      (req.body as AddOrder[])[0].id === 'o500'
        ? { status: 400, body: { status: 'error', error: 'bad_batch' } }
        : addOrdersAnswer(req),
    );
    const result = await client.orders.add(orders(1234));
    expect(result.failedBatches).toBe(1);
    expect(result.uploaded).toBe(734);
    expect(result.batches[1].error).toBeInstanceOf(TrackerApiError);
    expect(result.batches[1].response).toBeUndefined();
  });

  it('keeps at most `concurrency` batches in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    server.respondWith((req) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => inFlight--, 40);
      return { ...addOrdersAnswer(req), delayMs: 40 };
    });
    const narrow = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1', rateLimit: 'off', batchSize: 10, concurrency: 2 });
    await narrow.orders.add(orders(100));
    await narrow.close();
    expect(server.requests).toHaveLength(10);
    expect(peak).toBe(2);
  });

  it('addBatch sends exactly one request, whatever the size', async () => {
    server.respondWith(addOrdersAnswer);
    const answer = await client.orders.addBatch(orders(1234));
    expect(server.requests).toHaveLength(1);
    expect(answer.uploaded).toBe(1234);
  });

  it('clients.import batches and counts imported and failed clients', async () => {
    server.respondWith((req) =>
      (req.body as Array<{ id: string }>)[0].id === 'c0' ? { body: { status: 'success' } } : { status: 422, body: { status: 'error', error: 'x' } },
    );
    const clients = Array.from({ length: 700 }, (_, i) => ({ id: `c${i}`, name: `Client ${i}`, phone: '+100' }));
    const result = await client.clients.import(clients);
    expect(server.requests.map((r) => r.path)).toEqual(['/project/clients/import', '/project/clients/import']);
    expect(result).toMatchObject({ imported: 500, failed: 200, failedBatches: 1 });
  });
});
