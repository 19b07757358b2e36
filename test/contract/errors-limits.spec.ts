import { DEFAULT_RATE_LIMIT, TrackerApiError, TrackerClient, TrackerRequestEvent } from '../../src/tracker';
import { ContractSandbox } from './contract-sandbox';
import { obj, str } from './shapes';

interface RawAnswer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

interface RawRequest {
  method?: 'GET' | 'POST';
  /** Api-key header; null leaves it out. */
  key?: string | null;
  /** `project` query parameter; null leaves it out. */
  project?: string | null;
  useHttpCode?: boolean;
  body?: unknown;
  /** Sent as is (e.g. malformed JSON). */
  rawBody?: string;
}

/** One plain HTTP request, as a client without our transport would send it. */
async function raw(sandbox: ContractSandbox, path: string, req: RawRequest = {}): Promise<RawAnswer> {
  const url = new URL(`${sandbox.baseUrl}/${path}`);
  const project = req.project === undefined ? sandbox.projectId : req.project;
  if (project !== null) url.searchParams.set('project', project);
  const headers: Record<string, string> = { 'Content-type': 'application/json' };
  const key = req.key === undefined ? sandbox.apiKey : req.key;
  if (key !== null) headers['Api-key'] = key;
  if (req.useHttpCode) headers['Use-Http-Code'] = '1';
  const body = req.rawBody ?? (req.body === undefined ? '{}' : JSON.stringify(req.body));
  const response = await fetch(url, { method: req.method ?? 'POST', headers, body: req.method === 'GET' ? undefined : body });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text ? JSON.parse(text) : {} };
}

/** The service's error body, and nothing else. */
function expectErrorBody(body: Record<string, unknown>): void {
  expect(Object.keys(body).sort()).toEqual(['description', 'details', 'error', 'status']);
  expect(body).toEqual({ status: 'error', error: str, description: str, details: obj });
}

/** Each failure once with `Use-Http-Code: 1` (real status) and once without (HTTP 200, code only in the body). */
async function expectFailure(sandbox: ContractSandbox, path: string, req: RawRequest, status: number): Promise<RawAnswer> {
  const withCode = await raw(sandbox, path, { ...req, useHttpCode: true });
  expect([withCode.status, withCode.body]).toEqual([status, expect.anything()]);
  expectErrorBody(withCode.body);
  const without = await raw(sandbox, path, { ...req, useHttpCode: false });
  expect(without.status).toBe(200);
  expectErrorBody(without.body);
  expect(without.body.error).toBe(withCode.body.error);
  return withCode;
}

/** The client's failure, checked as TrackerApiError that never shows the key it was built with. */
async function expectClientFailure(promise: Promise<unknown>, httpStatus: number | null, secret: string): Promise<TrackerApiError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(TrackerApiError);
  const apiError = error as TrackerApiError;
  expect(apiError).toMatchObject({ httpStatus, error: str, description: str });
  for (const text of [apiError.message, String(apiError.stack), JSON.stringify(apiError.body ?? null), JSON.stringify(apiError)]) {
    expect(text).not.toContain(secret);
  }
  return apiError;
}

describe('contract: errors (401, 403, 400) with and without Use-Http-Code', () => {
  let sandbox: ContractSandbox;
  const OUTSIDER_KEY = 'outsider-secret-key-7f3a9c';
  let outsiderProject: number;

  beforeAll(async () => {
    sandbox = await ContractSandbox.start();
    // A second key with access to another project only: a key without access to project 1.
    const created = await sandbox.client().projects.create({ name: 'Outsider project', currency: 'EUR' });
    outsiderProject = created.data.project_id;
    await sandbox.grantKey(OUTSIDER_KEY, outsiderProject);
  });
  afterAll(() => sandbox?.close());

  describe('raw HTTP', () => {
    it('a missing Api-key is 401', async () => {
      await expectFailure(sandbox, 'project/integration/manager/list', { key: null }, 401);
    });

    it('an unknown Api-key is 401', async () => {
      await expectFailure(sandbox, 'project/integration/manager/list', { key: 'no-such-key' }, 401);
      await expectFailure(sandbox, 'user/projects', { method: 'GET', key: 'no-such-key', project: null }, 401);
    });

    it('a key without access to an existing project is 403; the project of the key is served', async () => {
      await expectFailure(sandbox, 'project/integration/manager/list', { key: OUTSIDER_KEY }, 403);
      await expectFailure(sandbox, 'project/integration/manager/list', { project: '999' }, 403);
      const own = await raw(sandbox, 'project/integration/manager/list', { key: OUTSIDER_KEY, project: String(outsiderProject), useHttpCode: true });
      expect(own).toMatchObject({ status: 200, body: { status: 'success' } });
    });

    it('a missing project on a project-scoped operation is 400 naming project', async () => {
      const answer = await expectFailure(sandbox, 'project/integration/manager/list', { project: null }, 400);
      expect(answer.body.description).toContain('project');
    });

    it('malformed JSON is 400', async () => {
      const answer = await expectFailure(sandbox, 'project/integration/manager/add', { rawBody: '{"id": "1", "name": ' }, 400);
      expect(String(answer.body.description)).toMatch(/json|body/i);
    });

    it('a missing required field is 400 naming the field', async () => {
      const answer = await expectFailure(sandbox, 'project/integration/manager/add', { body: { id: '77', email: 'x@example.com' } }, 400);
      expect(answer.body.description).toContain('name');
    });

    it('a wrong type is 400 naming the field', async () => {
      const answer = await expectFailure(sandbox, 'project/analytics/source/cost/add', {
        body: { source: 'direct', from_date: '2026-10-01', to_date: '2026-10-31', marketing_cost: 'a lot' },
      }, 400);
      expect(answer.body.description).toContain('marketing_cost');
    });
  });

  describe('through the client (always Use-Http-Code: 1)', () => {
    const attempts: TrackerRequestEvent[] = [];
    const clientWith = (apiKey: string, project?: string): TrackerClient =>
      sandbox.client({ apiKey, project, retries: 3, onRequest: (e) => attempts.push(e) });

    beforeEach(() => {
      attempts.length = 0;
    });

    it('an unknown key surfaces as TrackerApiError 401, not retried, the key nowhere in it', async () => {
      const secret = 'contract-wrong-secret-key-123456';
      const error = await expectClientFailure(clientWith(secret, sandbox.projectId).managers.list(), 401, secret);
      expect(error.retryable).toBe(false);
      expect(attempts).toHaveLength(1);
    });

    it('a key without access surfaces as TrackerApiError 403', async () => {
      await expectClientFailure(clientWith(OUTSIDER_KEY, sandbox.projectId).managers.list(), 403, OUTSIDER_KEY);
      expect(attempts).toHaveLength(1);
    });

    it('a missing required field surfaces as TrackerApiError 400 naming the field', async () => {
      const client = clientWith(sandbox.apiKey, sandbox.projectId);
      const error = await expectClientFailure(
        client.managers.add({ id: '78', email: 'y@example.com' } as never), 400, sandbox.apiKey);
      expect(error.description).toContain('name');
      expect(error.message).toContain('managers.add');
    });

    it('a project-scoped call without a project fails before any request', async () => {
      const error = await expectClientFailure(clientWith(sandbox.apiKey, undefined).managers.list(), null, sandbox.apiKey);
      expect(error.error).toBe('missing_project');
      expect(attempts).toHaveLength(0);
    });
  });
});

describe('contract: the project budget (429) with budget on', () => {
  let sandbox: ContractSandbox;
  const PATH = 'project/integration/manager/list';

  beforeAll(async () => {
    sandbox = await ContractSandbox.start('on', 'none');
  });
  afterAll(() => sandbox?.close());

  /** Waits out the sandbox's one-second window so that a test starts with a full budget. */
  const fullBudget = () => new Promise((resolve) => setTimeout(resolve, 1100));

  it('more than 10 requests in one second to one project → 429 with Retry-After (raw HTTP)', async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw(sandbox, PATH, { useHttpCode: true })));
    const elapsed = Date.now() - started;
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok.length + limited.length).toBe(20);
    expect(limited.length).toBeGreaterThan(0);
    // Exactly 10 pass when the burst fits in one second (a loaded machine may stretch it).
    if (elapsed < 1000) expect(ok.length).toBe(10);
    else expect(ok.length).toBeGreaterThanOrEqual(10);
    for (const answer of limited) {
      expectErrorBody(answer.body);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    const without = await raw(sandbox, PATH);
    expect(without.status).toBe(200);
    expectErrorBody(without.body);
    expect(without.body.error).toBe(limited[0].body.error);
    await fullBudget();
  });

  it('the client with its default budget (8/s) never provokes a 429 over 25 calls fired at once', async () => {
    const statuses: Array<number | 'network'> = [];
    const client = sandbox.client({ rateLimit: DEFAULT_RATE_LIMIT, retries: 0, onRequest: (e) => statuses.push(e.status) });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 25 }, () => client.managers.list()));
    expect(answers.every((a) => a.status === 'success')).toBe(true);
    expect(statuses).toEqual(Array(25).fill(200));
    // 25 calls at 8/s take about three seconds: the client spaced them.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2800);
    await fullBudget();
  });

  it('without client-side limits the client meets 429 and recovers by honouring Retry-After', async () => {
    const statuses: Array<number | 'network'> = [];
    const client = sandbox.client({ rateLimit: 'off', retries: 3, onRequest: (e) => statuses.push(e.status) });
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.managers.list()));
    expect(answers.every((a) => a.status === 'success')).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
  });
});
