import http from 'node:http';
import { AddressInfo } from 'node:net';
import { isOutcomeUnknown, TrackerApiError, TrackerClient, TrackerClientOptions } from '../../src/tracker';
import { ScriptedServer } from './scripted-server';

const lead = { creation_date: '2025-03-01 10:00:00+0000', name: 'Ann', title: 'Call back', status: '0' as const };

/**
 * Calls that create a record (lead create, event sends, media plan create, expense add...) are not repeated
 * after a failure that may have landed: the caller must look the record up first. Everything else keeps
 * its retries.
 */
describe('tracker client: create calls are never repeated blindly (real loopback server)', () => {
  let server: ScriptedServer;
  const clients: TrackerClient[] = [];

  // a timeout of 1 s against answers delayed 2 s: a 150-ms timeout also cut answers that came at once on a loaded CI machine
  const make = (extra: Partial<TrackerClientOptions> = {}) => {
    const client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '7', rateLimit: 'off', retries: 3, retryBaseMs: 5, timeoutMs: 1_000, ...extra });
    clients.push(client);
    return client;
  };
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('no error'); }, (e: unknown) => e as TrackerApiError);

  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  beforeEach(() => server.reset());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(() => server.close());

  it('a lead create that times out is sent once and reported as possibly processed', async () => {
    server.script({ delayMs: 2_000, body: { status: 'success', lead_id: '1' } });
    const error = await failure(make().leads.create(lead));
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.message).toMatch(/^tracker leads\.create \(POST \/project\/leads\/lead\/create\) failed: no HTTP answer: ECONNABORTED: .*; it may have been processed$/);
    expect(server.requests).toHaveLength(1);
  });

  it('an event bulk send whose connection drops, and a media plan create answered 500, are sent once', async () => {
    server.script({ destroy: true }, { status: 500, body: { status: 'error', error: 'internal_error' } });
    const client = make();
    expect(isOutcomeUnknown(await failure(client.events.bulkSend([{ name: 'signup' }])))).toBe(true);
    const plan = await failure(client.mediaplans.create({ channel: 'ads', date_from: '2025-03-01', date_to: '2025-03-31', metrics: [{ name: 'leads', value: 5 }] }));
    expect(plan).toMatchObject({ httpStatus: 500, outcomeUnknown: true });
    expect(server.requests.map((r) => r.path)).toEqual(['/project/events/bulk/send', '/project/mediaplan/target/create']);
  });

  it('a create refused with 429 was not taken: it is retried as before', async () => {
    server.script({ status: 429, headers: { 'retry-after': '0' }, body: { status: 'error', error: 'request_limit_error' } }, { body: { status: 'success', lead_id: '9' } });
    await expect(make().leads.create(lead)).resolves.toEqual({ status: 'success', lead_id: '9' });
    expect(server.requests).toHaveLength(2);
  });

  it('a create that never reached the service (connection refused) is retried, and fails as transient', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const warnings: string[] = [];
    const client = make({ baseUrl: `http://127.0.0.1:${port}/api/v1`, logger: { warn: (m) => warnings.push(m) } });
    const error = await failure(client.leads.create(lead));
    expect(error).toMatchObject({ error: 'ECONNREFUSED', outcomeUnknown: false, retryable: true });
    expect(warnings).toHaveLength(3); // three retries
  });

  it('an upsert by id (add-orders, clients import) keeps its retries after a timeout', async () => {
    server.script({ delayMs: 2_000 }, { destroy: true }, { body: { status: 'success', processed: 1 } });
    await expect(make().orders.addBatch([{ id: 'd1' }])).resolves.toMatchObject({ processed: 1 });
    expect(server.requests.map((r) => r.path)).toEqual(['/project/add-orders', '/project/add-orders', '/project/add-orders']);
  });
});
