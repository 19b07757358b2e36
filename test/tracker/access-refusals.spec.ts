import { isAccessRefusal, TrackerApiError, TrackerClient } from '../../src/tracker';
import { ScriptedServer } from './scripted-server';

const API_KEY = 'sk-refused-1a2b3c4d5e';

/** The service refusing the Api-key or the project: one attempt, an error that names what was refused. */
describe('tracker client: a refused Api-key or project (real loopback server)', () => {
  let server: ScriptedServer;
  let client: TrackerClient;

  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  beforeEach(() => {
    server.reset();
    client = new TrackerClient({ baseUrl: server.url, apiKey: API_KEY, project: '4242', rateLimit: 'off', retries: 3, retryBaseMs: 5 });
  });
  afterEach(() => client.close());
  afterAll(() => server.close());

  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('no error'); }, (e: unknown) => e as TrackerApiError);

  it('HTTP 401: the Api-key is refused, named with what the service said, and not retried', async () => {
    server.respondWith(() => ({ status: 401, body: { status: 'error', error: 'authentication_failed', description: 'Api-key is not valid', details: {} } }));
    const error = await failure(client.managers.add({ id: 'm1', name: 'Ann', email: 'a@example.com' }));
    expect(isAccessRefusal(error)).toBe(true);
    expect(error.refused).toEqual({ what: 'api_key' });
    expect(error.message).toBe(
      'the service refused the Api-key (tracker.api_key, env TRACKER_API_KEY); the service said HTTP 401: authentication_failed: Api-key is not valid ' +
        'details={} (on managers.add (POST /project/integration/manager/add))',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('HTTP 403: the project is refused for this key, named by its number', async () => {
    server.respondWith(() => ({ status: 403, body: { status: 'error', error: 'access_denied', description: 'project 4242: the Api-key has no access to it' } }));
    const error = await failure(client.orders.addBatch([{ id: 'd1' }]));
    expect(error.refused).toEqual({ what: 'project', project: '4242' });
    expect(error.message).toMatch(/^the service refused project 4242 for this Api-key \(tracker\.project, env TRACKER_PROJECT\); the service said HTTP 403: access_denied: project 4242: the Api-key has no access to it/);
    expect(server.requests).toHaveLength(1);
  });

  it('the service\'s codes inside HTTP 200 (as it answers without Use-Http-Code): authentication_failed, access_denied', async () => {
    server.script(
      { status: 200, body: { status: 'error', error: 'authentication_failed', description: 'Api-key is not valid' } },
      { status: 200, body: { status: 'error', error: 'access_denied', description: 'project 4242: the Api-key has no access to it' } },
    );
    const key = await failure(client.clients.importBatch([{ id: 'c1', name: 'C' }]));
    expect(key.refused).toEqual({ what: 'api_key' });
    expect(key.message).toContain('the service said HTTP 401: authentication_failed: Api-key is not valid: answered with HTTP 200');
    const project = await failure(client.managers.list());
    expect(project.refused).toEqual({ what: 'project', project: '4242' });
    expect(server.requests).toHaveLength(2);
  });

  it('a proxy\'s or common API\'s codes inside HTTP 200 are refusals too (unauthorized, forbidden)', async () => {
    server.script(
      { status: 200, body: { status: 'error', error: 'unauthorized', description: 'Api-key is not valid' } },
      { status: 200, body: { status: 'error', error: 'forbidden', description: 'no access' } },
    );
    expect((await failure(client.clients.importBatch([{ id: 'c1', name: 'C' }]))).refused).toEqual({ what: 'api_key' });
    expect((await failure(client.managers.list())).refused).toEqual({ what: 'project', project: '4242' });
  });

  it('request_limit_error inside HTTP 200 is waited on and retried like a 429, even for a create', async () => {
    server.script(
      { status: 200, body: { status: 'error', error: 'request_limit_error', description: 'too many requests' } },
      { status: 200, body: { status: 'success', lead_id: '9' } },
    );
    await expect(client.leads.create({ title: 'x', name: 'n', phone: '+7900' } as never)).resolves.toMatchObject({ lead_id: '9' });
    expect(server.requests).toHaveLength(2);
  });

  it('on an operation without a project, a 403 is the key’s own rights', async () => {
    server.respondWith(() => ({ status: 403, body: { status: 'error', error: 'forbidden', description: 'not allowed' } }));
    const error = await failure(client.projects.list());
    expect(error.refused).toEqual({ what: 'api_key' });
  });

  it('a record’s problem (400) and a transient failure (500) are no refusal', async () => {
    server.script(
      { status: 400, body: { status: 'error', error: 'request_data_validation_error', description: 'name: required field is missing' } },
      { status: 500, body: { status: 'error', error: 'internal_error' } },
      { status: 500, body: { status: 'error', error: 'internal_error' } },
      { status: 500, body: { status: 'error', error: 'internal_error' } },
      { status: 500, body: { status: 'error', error: 'internal_error' } },
    );
    const invalid = await failure(client.managers.add({ id: 'm1', name: '', email: 'a@example.com' }));
    expect(isAccessRefusal(invalid)).toBe(false);
    expect(invalid.message).toMatch(/^tracker managers\.add .* failed: HTTP 400/);
    const transient = await failure(client.managers.list());
    expect(isAccessRefusal(transient)).toBe(false);
    expect(transient.retryable).toBe(true);
  });

  it('never puts the Api-key in a refusal, even when the service echoes it', async () => {
    server.respondWith(() => ({ status: 401, body: { status: 'error', error: 'unauthorized', description: `Api-key ${API_KEY} is not valid` } }));
    const error = await failure(client.managers.list());
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).toContain('Api-key [redacted] is not valid');
  });
});
