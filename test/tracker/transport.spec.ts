import { TrackerApiError, TrackerClient, TrackerClientOptions, TrackerRequestEvent } from '../../src/tracker';
import { ScriptedServer } from './scripted-server';

const API_KEY = 'sk-test-9f8e7d6c5b4a';

describe('tracker transport (real loopback server)', () => {
  let server: ScriptedServer;
  let client: TrackerClient;
  const events: TrackerRequestEvent[] = [];
  const warnings: string[] = [];

  const make = (extra: Partial<TrackerClientOptions> = {}) =>
    new TrackerClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      project: '4242',
      rateLimit: 'off',
      retries: 3,
      retryBaseMs: 5,
      logger: { warn: (m) => warnings.push(m) },
      onRequest: (e) => events.push(e),
      ...extra,
    });

  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  beforeEach(() => {
    server.reset();
    events.length = 0;
    warnings.length = 0;
    client = make();
  });
  afterEach(() => client.close());
  afterAll(() => server.close());

  it('sends Api-key, Content-type, Use-Http-Code and project on every request', async () => {
    await client.managers.add({ id: 'm1', name: 'Ann', email: 'ann@example.com' });
    await client.dashboards.list();
    expect(server.requests).toHaveLength(2);
    for (const req of server.requests) {
      expect(req.headers['api-key']).toBe(API_KEY);
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['use-http-code']).toBe('1');
      expect(req.query.get('project')).toBe('4242');
    }
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/project/integration/manager/add' });
    expect(server.requests[0].body).toEqual({ id: 'm1', name: 'Ann', email: 'ann@example.com' });
  });

  it('sends no project on the operations that are not project-scoped', async () => {
    await client.projects.list();
    await client.projects.create({ name: 'Shop', currency: 'EUR' });
    expect(server.requests.map((r) => r.query.has('project'))).toEqual([false, false]);
  });

  it('fails a project-scoped call without a project, before any request', async () => {
    const noProject = make({ project: undefined });
    await expect(noProject.managers.list()).rejects.toMatchObject({ error: 'missing_project' });
    await noProject.close();
    expect(server.requests).toHaveLength(0);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    server.script(
      { status: 429, headers: { 'retry-after': '1' }, body: { status: 'error', error: 'request_limit_error' } },
      { body: { status: 'success', data: [], total: 0 } },
    );
    const answer = await client.managers.list();
    expect(answer).toEqual({ status: 'success', data: [], total: 0 });
    expect(server.requests).toHaveLength(2);
    const spacing = server.requests[1].at - server.requests[0].at;
    expect(spacing).toBeGreaterThanOrEqual(950);
    expect(spacing).toBeLessThan(3000);
    expect(events.map((e) => [e.status, e.retry])).toEqual([
      [429, false],
      [200, true],
    ]);
    expect(warnings[0]).toContain('retry 1/3');
  });

  it('retries 5xx with backoff, then succeeds', async () => {
    server.script({ status: 502, body: 'Bad gateway' }, { status: 503, body: { status: 'error', error: 'down' } });
    await expect(client.channels.list()).resolves.toEqual({ status: 'success' });
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after the retry budget with the last error', async () => {
    server.respondWith(() => ({ status: 500, body: { status: 'error', error: 'internal', description: 'boom' } }));
    const error = await client.leads.statuses().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackerApiError);
    expect(error).toMatchObject({ httpStatus: 500, error: 'internal', retryable: true, operation: 'leads.statuses' });
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry a 400 and surfaces error, description and details', async () => {
    server.respondWith(() => ({
      status: 400,
      body: { status: 'error', error: 'invalid_param', description: 'name is empty', details: { field: 'name' } },
    }));
    const error = (await client.managers.add({ id: 'x', name: '' }).catch((e: unknown) => e)) as TrackerApiError;
    expect(error).toBeInstanceOf(TrackerApiError);
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      operation: 'managers.add',
      httpStatus: 400,
      error: 'invalid_param',
      description: 'name is empty',
      details: { field: 'name' },
      retryable: false,
    });
    expect(error.message).toContain('invalid_param');
    expect(error.message).toContain('name is empty');
    expect(error.message).toContain('POST /project/integration/manager/add');
  });

  it('treats an error inside an HTTP 200 answer as a failure, never an acknowledgement', async () => {
    server.respondWith(() => ({ status: 200, body: { status: 'error', error: 'project_not_found', description: 'no such project' } }));
    const error = await client.orders.addBatch([{ id: '1' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackerApiError);
    expect(error).toMatchObject({ httpStatus: 200, error: 'project_not_found', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a dropped connection and a timeout', async () => {
    server.script({ destroy: true }, { delayMs: 400 }, { body: { status: 'success', total: 0, data: [] } });
    const fast = make({ timeoutMs: 150 });
    await expect(fast.channels.list()).resolves.toMatchObject({ total: 0 });
    await fast.close();
    expect(server.requests).toHaveLength(3);
    expect(events.slice(0, 2).map((e) => e.status)).toEqual(['network', 'network']);
  });

  it('never puts the Api-key in an error message, body or log line, even when the service echoes it', async () => {
    server.respondWith((req) => ({
      status: 403,
      body: { status: 'error', error: 'forbidden', description: `key ${String(req.headers['api-key'])} has no access`, details: { key: req.headers['api-key'] } },
    }));
    const error = (await client.managers.list().catch((e: unknown) => e)) as TrackerApiError;
    expect(error).toBeInstanceOf(TrackerApiError);
    expect(error.message).toContain('forbidden');
    expect(error.message).not.toContain(API_KEY);
    expect(JSON.stringify(error.body)).not.toContain(API_KEY);
    expect(JSON.stringify(error.details)).not.toContain(API_KEY);
    expect(String(error.stack)).not.toContain(API_KEY);

    server.reset();
    server.respondWith((req) => ({ status: 503, body: `upstream refused ${String(req.headers['api-key'])}` }));
    const retried = (await client.managers.list().catch((e: unknown) => e)) as TrackerApiError;
    expect(retried.message).toContain('upstream refused');
    expect(retried.message).not.toContain(API_KEY);
    expect(warnings.join('\n')).not.toContain(API_KEY);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('never puts the Api-key in a network error', async () => {
    const dead = make({ baseUrl: 'http://127.0.0.1:1/v1', retries: 1 });
    const error = (await dead.managers.list().catch((e: unknown) => e)) as TrackerApiError;
    await dead.close();
    expect(error).toMatchObject({ httpStatus: null, retryable: true });
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(Object.keys(error)).not.toContain('cause');
  });
});
