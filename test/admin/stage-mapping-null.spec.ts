import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { GOOD_TOKEN } from './fixtures/test-connector';
import { removeDir, startAdminApp, startSandbox, tempDataDir } from './admin-test-app';

const ADMIN_TOKEN = 'stage-mapping-null-token';

/**
 * A connector without stages (a spreadsheet, this test source) has no stage mapping: the answer is the JSON
 * `null` the OpenAPI document promises, not an empty body that no JSON reader (the status page's) can parse.
 */
describe('GET /api/connections/{id}/stage-mapping of a connector without stages', () => {
  let sandbox: { app: INestApplication; url: string };
  let admin: { app: INestApplication; url: string };
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = tempDataDir();
    admin = await startAdminApp(sandbox.url, { dataDir, adminToken: ADMIN_TOKEN, connections: [{ id: 'crm', connector: 'test-source', settings: { token: GOOD_TOKEN } }] });
  });

  afterAll(async () => {
    await admin?.app.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  it('answers 200 with the JSON null', async () => {
    const res = await request(admin.url).get('/api/connections/crm/stage-mapping').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBe('null');
    expect(JSON.parse(res.text)).toBeNull();
  });
});
