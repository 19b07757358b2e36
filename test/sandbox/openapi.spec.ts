import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { REQUEST_BODIES } from '../../src/sandbox/openapi/request-bodies';
import { createSandboxApp } from '../../src/sandbox/sandbox-app';
import { setupSandboxOpenApi } from '../../src/sandbox/sandbox-openapi';

/** The sandbox's OpenAPI document: request bodies, list caps, and the operations outside the specification marked. */
describe('sandbox OpenAPI document', () => {
  let app: INestApplication;
  let doc: { paths: Record<string, Record<string, { description?: string; requestBody?: { content: Record<string, { schema: any }> } }>> };

  beforeAll(async () => {
    app = await createSandboxApp({ db: ':memory:', seed: 'none', apiKey: 'k', budget: 'off' }, { prefix: 'api/v1' });
    setupSandboxOpenApi(app, 'docs');
    await app.listen(0, '127.0.0.1');
    doc = (await (await fetch(`${await app.getUrl()}/docs-json`)).json()) as typeof doc;
  });
  afterAll(() => app?.close());

  const op = (method: string, path: string) => doc.paths[`/api/v1${path}`]?.[method];
  const body = (path: string) => op('post', path)?.requestBody?.content['application/json'].schema;

  it('every body the table describes belongs to a route of the sandbox', () => {
    const missing = Object.keys(REQUEST_BODIES).filter((key) => {
      const [method, path] = key.split(' ');
      return !op(method.toLowerCase(), path);
    });
    expect(missing).toEqual([]);
  });

  it('gives the request bodies their schemas', () => {
    expect(body('/project/add-orders')).toMatchObject({ type: 'array', items: { properties: { date_create: { type: 'string' }, tracker: { nullable: true } } } });
    expect(body('/project/clients/import')).toMatchObject({ items: { required: ['id', 'name'] } });
    expect(body('/project/set-statuses')).toMatchObject({ items: { properties: { type: { enum: ['progress', 'paid', 'canceled'] } }, required: ['id', 'name', 'type'] } });
    expect(body('/project/integration/manager/add')).toMatchObject({ required: ['id', 'name'] });
  });

  it('states the cap of every list that takes a limit', () => {
    expect(body('/project/integration/order/list').properties.limit).toMatchObject({ maximum: 10_000 });
    expect(body('/project/site/visit/list').properties.limit).toMatchObject({ maximum: 10_000 });
    expect(body('/project/clients').properties.limit).toMatchObject({ maximum: 10_000 });
    for (const path of ['/project/emailtracking/email/list', '/project/leads/lead/list', '/project/speech/call/list', '/project/clients/campaign/list', '/project/clients/campaign/contact/list']) {
      expect(body(path).properties.limit).toMatchObject({ maximum: 1_000 });
      expect(op('post', path)?.description).toContain('at most 1000');
    }
  });

  it('marks the status operations as outside the specification', () => {
    expect(op('post', '/project/integration/status/list')?.description).toContain('Outside the specification, shape from public clients');
    expect(op('post', '/project/set-statuses')?.description).toContain('Outside the specification, shape from public clients');
  });
});
