import type { INestApplication } from '@nestjs/common';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { GOOD_TOKEN } from './fixtures/test-connector';
import { removeDir, startAdminApp, startSandbox, tempDataDir } from './admin-test-app';

/** The generated admin token: written once (0600), printed once, accepted across restarts. */
describe('admin token generated on first start', () => {
  let sandbox: { app: INestApplication; url: string };
  let dataDir: string;
  const connections = [{ id: 'crm', connector: 'test-source', settings: { token: GOOD_TOKEN } }];

  beforeAll(async () => {
    delete process.env.ADMIN_TOKEN;
    sandbox = await startSandbox();
    dataDir = tempDataDir();
  });
  afterAll(async () => {
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  /** Starts the app while recording what reaches stdout (the token is printed there, not logged). */
  async function startCapturing(): Promise<{ app: INestApplication; url: string; printed: string }> {
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      const started = await startAdminApp(sandbox.url, { dataDir, connections });
      return { ...started, printed: chunks.join('') };
    } finally {
      process.stdout.write = write;
    }
  }

  it('writes the token file once with mode 0600, prints it only at the first start, and accepts it', async () => {
    const first = await startCapturing();
    const file = join(dataDir, 'admin-token');
    const token = readFileSync(file, 'utf8').trim();
    try {
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.printed).toContain(token);
      expect((await request(first.url).get('/api/connections').set('Authorization', `Bearer ${token}`)).status).toBe(200);
      expect((await request(first.url).get('/api/connections')).status).toBe(401);
    } finally {
      await first.app.close();
    }
    const mtime = statSync(file).mtimeMs;

    const second = await startCapturing();
    try {
      expect(second.printed).not.toContain(token);
      expect(readFileSync(file, 'utf8').trim()).toBe(token);
      expect(statSync(file).mtimeMs).toBe(mtime);
      expect((await request(second.url).get('/api/runs').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    } finally {
      await second.app.close();
    }
  });

  it('prefers ADMIN_TOKEN over the file', async () => {
    process.env.ADMIN_TOKEN = 'from-the-environment-123';
    try {
      const started = await startCapturing();
      try {
        expect(started.printed).not.toContain('from-the-environment-123');
        expect((await request(started.url).get('/api/runs').set('Authorization', 'Bearer from-the-environment-123')).status).toBe(200);
        const fileToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
        expect((await request(started.url).get('/api/runs').set('Authorization', `Bearer ${fileToken}`)).status).toBe(401);
      } finally {
        await started.app.close();
      }
    } finally {
      delete process.env.ADMIN_TOKEN;
    }
  });
});
