import { BadRequestException, NotFoundException } from '@nestjs/common';
import { toSandboxError } from '../../src/sandbox/errors/sandbox-exception.filter';
import { SandboxHarness } from './sandbox-harness';

const HTTP = { 'Use-Http-Code': '1' };

/** Auth, scope, the error body, Use-Http-Code and the project budget, as the service does them. */
describe('sandbox auth and errors', () => {
  let sandbox: SandboxHarness;
  let otherProject: number;

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
    // A project the test key cannot see: created by a second key.
    const created = await sandbox.post('account/project/create', { name: 'other', currency: 'USD' }, { project: null });
    expect(created.body.data.project_id).toBeGreaterThan(1);
    otherProject = created.body.data.project_id;
    await sandbox.app.get(SandboxHarness.dataSourceToken).query(
      "INSERT INTO sb_api_key (key, projects) VALUES ('limited-key', '[1]')");
  });
  afterAll(() => sandbox.close());

  const listManagers = (options: Parameters<SandboxHarness['post']>[2]) =>
    sandbox.post('project/integration/manager/list', {}, options);

  it('answers a missing or unknown Api-key with 401', async () => {
    for (const key of [null, 'wrong-key']) {
      const soft = await listManagers({ key });
      expect(soft.status).toBe(200);
      expect(soft.body).toEqual({ status: 'error', error: 'authentication_failed', description: expect.stringContaining('Api-key'), details: {} });
      expect((await listManagers({ key, headers: HTTP })).status).toBe(401);
    }
  });

  it('answers a project the key cannot access with 403', async () => {
    const answer = await listManagers({ key: 'limited-key', project: otherProject, headers: HTTP });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ status: 'error', error: 'access_denied' });
    expect(answer.body.description).toContain(String(otherProject));
    expect((await listManagers({ key: 'limited-key', project: 1 })).body.status).toBe('success');
  });

  it('answers a missing project on a project-scoped operation with 400 naming it', async () => {
    const answer = await listManagers({ project: null, headers: HTTP });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 'error', error: 'request_data_validation_error', details: { field: 'project' } });
    expect(answer.body.description).toContain('project');
    expect((await sandbox.get('user/projects', { project: null })).body.status).toBe('success');
  });

  it('answers malformed JSON with 400 in the service body, 200 without Use-Http-Code', async () => {
    const soft = await sandbox.post('project/add-orders', undefined, { raw: '[{"id": "1",' });
    expect(soft.status).toBe(200);
    expect(soft.body).toMatchObject({ status: 'error', error: 'request_data_validation_error' });
    expect(soft.body.description).toContain('JSON');
    const strict = await sandbox.post('project/add-orders', undefined, { raw: '{oops', headers: HTTP });
    expect(strict.status).toBe(400);
  });

  it('names missing required fields and wrong types', async () => {
    const missing = await sandbox.post('project/integration/manager/add', { name: 'No id', email: 'a@b.c' }, { headers: HTTP });
    expect(missing.status).toBe(400);
    expect(missing.body.description).toContain('id');
    const wrongType = await sandbox.post('project/integration/manager/add', { id: '1', name: 42, email: 'a@b.c' }, { headers: HTTP });
    expect(wrongType.body.description).toContain('name');
    const currency = await sandbox.post('account/project/create', { name: 'x', currency: 'XXX' }, { project: null, headers: HTTP });
    expect(currency.status).toBe(400);
    expect(currency.body.description).toContain('currency');
  });

  it("puts the sections' routes behind the same auth and error body", async () => {
    const answer = await sandbox.post('project/analytics/source/list', {}, { key: null, headers: HTTP });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('authentication_failed');
  });

  it("maps Nest's own exceptions (ValidationPipe messages name the field)", () => {
    const validation = toSandboxError(new BadRequestException(['name must be a string', 'id should not be empty']));
    expect(validation).toMatchObject({ httpStatus: 400, code: 'request_data_validation_error', details: { field: 'name' } });
    expect(validation.description).toBe('name must be a string; id should not be empty');
    expect(toSandboxError(new NotFoundException('Cannot POST /x'))).toMatchObject({ httpStatus: 404, code: 'resource_not_found' });
    expect(toSandboxError(new Error('boom'))).toMatchObject({ httpStatus: 500, code: 'internal_error' });
  });

  it('answers an unknown route in the service body', async () => {
    const answer = await sandbox.post('project/no-such-operation', {}, { headers: HTTP });
    expect(answer.status).toBe(404);
  });

  it('spends the project budget of 10 requests per second, then 429 with Retry-After', async () => {
    const limited = await SandboxHarness.start({ budget: 'on' });
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, () =>
        limited.post('project/integration/manager/list', {}, { headers: HTTP })));
      const refused = answers.filter((answer) => answer.status === 429);
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
      expect(refused).toHaveLength(2);
      expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const soft = await limited.post('project/integration/manager/list', {});
      expect(soft.status).toBe(200);
      expect(soft.body).toMatchObject({ status: 'error', error: 'request_limit_error' });
      expect(soft.headers.get('retry-after')).not.toBeNull();
    } finally {
      await limited.close();
    }
  });
});
