import 'reflect-metadata';
import { Controller, Get, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MountedSandboxExceptionFilter } from '../../src/sandbox/errors/mounted-sandbox-exception.filter';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SANDBOX_BODY_LIMIT, sandboxImports } from '../../src/sandbox/sandbox-app';
import { SandboxInfo } from '../../src/sandbox/sandbox-info';

@Controller('admin')
class HostController {
  @Get('ping')
  ping() {
    return { pong: true };
  }
}

/** The sandbox inside another Nest application (the daemon), under /sandbox/api/v1. */
describe('sandbox mounted in a host application', () => {
  let app: INestApplication;
  let base: string;
  let key: string;

  beforeAll(async () => {
    @Module({ imports: sandboxImports({ db: ':memory:', seed: 'demo', budget: 'off' }), controllers: [HostController] })
    class HostModule {}
    const host = await NestFactory.create<NestExpressApplication>(HostModule, { logger: false });
    host.useBodyParser('json', { limit: SANDBOX_BODY_LIMIT });
    app = host;
    app.useGlobalFilters(new MountedSandboxExceptionFilter('/sandbox/api/v1', app.getHttpAdapter()));
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    key = app.get(SandboxInfo).getSandboxInfo().apiKey;
  });
  afterAll(() => app.close());

  it('serves the sandbox under /sandbox/api/v1 with a generated key', async () => {
    expect(key).toMatch(/^sb_[0-9a-f]{32}$/);
    const response = await fetch(`${base}/sandbox/api/v1/user/projects`, { headers: { 'Api-key': key } });
    const body = await response.json();
    expect(body).toMatchObject({ status: 'success', projects: [{ id: 1, currency: 'RUB' }] });
    const visits = await fetch(`${base}/sandbox/api/v1/project/site/visit/list?project=1`, {
      method: 'POST', headers: { 'Api-key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ limit: 5 }),
    });
    expect(await visits.json()).toMatchObject({ status: 'success', total: 2000 });
  });

  it("leaves the host's own routes unguarded and answers its errors the Nest way", async () => {
    expect(await (await fetch(`${base}/admin/ping`)).json()).toEqual({ pong: true });
    const missing = await fetch(`${base}/admin/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ statusCode: 404 });
  });

  it('answers malformed JSON under the sandbox path with the service body', async () => {
    const response = await fetch(`${base}/sandbox/api/v1/project/add-orders?project=1`, {
      method: 'POST', headers: { 'Api-key': key, 'Content-Type': 'application/json', 'Use-Http-Code': '1' }, body: '[{',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'error', error: 'request_data_validation_error' });
  });

  it('takes a large add-orders batch once the host raises its body limit', async () => {
    const orders = Array.from({ length: 2000 }, (_, index) => ({ id: `big-${index}`, fields: { note: 'n'.repeat(100) } }));
    const response = await fetch(`${base}/sandbox/api/v1/project/add-orders?project=1`, {
      method: 'POST', headers: { 'Api-key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(orders),
    });
    expect(await response.json()).toMatchObject({ status: 'success', processed: 2000, saved: 2000 });
  });

  it('does not answer at the standalone path', async () => {
    const response = await fetch(`${base}/api/v1/user/projects`, { headers: { 'Api-key': key } });
    expect(response.status).toBe(404);
  });
});
