import { TRACKER_OPERATIONS, TrackerClient } from '../../src/tracker';
import { ScriptedServer } from './scripted-server';

/** Arguments for each client method; methods not listed are called with `{}`. */
const ARGS: Record<string, unknown[]> = {
  'orders.info': ['D 1'],
  'orders.externalUrl': ['D-2'],
  'orders.addBatch': [[{ id: '1' }]],
  'orders.listStatuses': [],
  'orders.setStatuses': [[{ id: 'won', name: 'Won', type: 'paid' }]],
  'channels.listExpenses': [],
  'channels.list': [],
  'channels.deleteExpense': [5],
  'calltracking.delete': [3],
  'clients.importBatch': [[{ id: 'c', name: 'n' }]],
  'clients.feed': ['77'],
  'mediaplans.delete': ['mp1'],
  'speech.listDictionaries': [],
  'speech.listPhrases': ['12'],
  'speech.deleteDictionary': ['12'],
  'emailtracking.attachment': [10, 20],
  'leads.statuses': [],
  'proxyLeads.list': ['2024-01-01-2024-01-31'],
  'proxyLeads.get': ['pl9'],
  'events.add': [[{ display_name: 'Buy', type: 'js', parameter: 'buy' }]],
  'events.archive': [31],
  'events.bulkSend': [[{ name: 'Buy' }]],
  'managers.list': [],
  'managers.delete': ['m1'],
  'projects.list': [],
  'projects.trackingCodes': [],
  'dashboards.list': [],
  'dashboards.widgets': ['dash1'],
};

describe('every client method calls its own operation', () => {
  let server: ScriptedServer;
  let client: TrackerClient;
  beforeAll(async () => {
    server = await ScriptedServer.start();
    client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '5', rateLimit: 'off', retries: 0 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it.each(TRACKER_OPERATIONS.map((op) => [op.clientMethod, op] as const))('%s', async (clientMethod, op) => {
    server.reset();
    const [section, method] = clientMethod.split('.');
    const sub = (client as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[section];
    const result = await sub[method](...(ARGS[clientMethod] ?? [{}]));
    if (op.binary) await (result as { stream: NodeJS.ReadableStream }).stream.resume();
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    const pattern = new RegExp('^' + op.path.replace(/\{\w+\}/g, '[^/]+') + '$');
    expect(req.method).toBe(op.method);
    expect(req.path).toMatch(pattern);
    expect(req.query.has('project')).toBe(op.projectScoped);
  });

  it('encodes path parameters and passes query parameters', async () => {
    server.reset();
    await client.orders.info('D 1/2');
    await client.clients.feed('77');
    await client.proxyLeads.list('2024-01-01-2024-01-31');
    expect(server.requests[0].path).toBe('/project/orders/D%201%2F2/info');
    expect(server.requests[1].query.get('client')).toBe('77');
    expect(server.requests[2].query.get('period')).toBe('2024-01-01-2024-01-31');
  });

  it('orders.addBatch sends the orders it is given in one request, whatever their number (the engine batches)', async () => {
    server.reset();
    server.respondWith((req) => ({ body: { status: 'success', uploaded: (req.body as unknown[]).length } }));
    const answer = await client.orders.addBatch(Array.from({ length: 1234 }, (_, i) => ({ id: `o${i}`, price: '10' })));
    expect(server.requests).toHaveLength(1);
    expect(answer.uploaded).toBe(1234);
  });

  it('sends the events log filter as a body on GET, as the spec says', async () => {
    server.reset();
    await client.events.log({ name: 'Buy', date_from: '2024-01-01' });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/project/events/log', body: { name: 'Buy', date_from: '2024-01-01' } });
  });
});
