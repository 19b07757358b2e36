import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createSandboxApp } from '../../../src/sandbox/sandbox-app';
import { SandboxModule } from '../../../src/sandbox/sandbox.module';
import { SectionClient } from './section-client';

/** Sandbox only: POST /project/proxy-leads/add makes a proxy lead, as the service's website forms would. */
describe('sandbox: POST /project/proxy-leads/add', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  const today = () => new Date().toISOString().slice(0, 10);

  it('answers {status: success, id} and the lead is listed with creation_date now and no order_id', async () => {
    const before = Date.now();
    const added = await sandbox.post('project/proxy-leads/add', { title: 'Заявка', name: 'Иван', phone: '+7 912 000-11-22', email: 'ivan@example.ru', text: 'Диван', tracker: 1000005 });
    expect(added.status).toBe(200);
    expect(added.data).toEqual({ status: 'success', id: expect.stringMatching(/^\d+$/) });
    const list = await sandbox.get('project/proxy-leads', { period: `${today()}-${today()}` });
    const lead = list.data.ProxyLeads.find((l: { id: string }) => l.id === added.data.id);
    expect(lead).toEqual({
      id: added.data.id, title: 'Заявка', name: 'Иван', phone: '+7 912 000-11-22', email: 'ivan@example.ru', text: 'Диван', tracker: '1000005',
      creation_date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), order_id: '',
    });
    const created = Date.parse(`${lead.creation_date.replace(' ', 'T')}Z`);
    expect(created).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(created).toBeLessThanOrEqual(Date.now());
  });

  it('refuses a field of the wrong type and a lead without any contact, naming the field', async () => {
    const wrong = await sandbox.post('project/proxy-leads/add', { title: ['x'], phone: '1' });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.data)).toContain('title');
    const empty = await sandbox.post('project/proxy-leads/add', { title: 'Пусто' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.data)).toContain('phone');
  });

  it('is marked "sandbox only" in the sandbox\'s OpenAPI document', async () => {
    const app = await createSandboxApp({ db: ':memory:', seed: 'none', apiKey: 'doc-key', budget: 'off' });
    try {
      const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { include: [SandboxModule] });
      const path = Object.keys(doc.paths).find((p) => p.endsWith('/project/proxy-leads/add'))!;
      expect(path).toBeDefined();
      expect(doc.paths[path].post?.summary).toMatch(/^Sandbox only/);
      expect(doc.paths[path].post?.description).toContain('Sandbox only');
    } finally {
      await app.close();
    }
  });
});
