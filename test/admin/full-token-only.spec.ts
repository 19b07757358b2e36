/** `fullTokenOnly`: an Express route outside Nest's controllers (a queue board) held to the full admin token. */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { HttpAdapterHost } from '@nestjs/core';
import { AdminTokenService } from '../../src/admin/auth/admin-token.service';
import { fullTokenOnly } from '../../src/admin/auth/full-token.middleware';
import { validateConfig } from '../../src/config';

describe('fullTokenOnly', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const config = validateConfig({
      sandbox: { projects: 2 },
      projects: { acme: { project: '2' } },
      admin: { token: 'the-full-token-1', tokens: [{ name: 'acme', token: 'acme-token-1', projects: ['acme'], role: 'operator' }] },
    }, { env: {} });
    const tokens = new AdminTokenService(config, new HttpAdapterHost());
    const app = express();
    app.use('/admin/queues', fullTokenOnly(tokens), (_req, res) => res.json({ board: true }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/queues`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const status = async (token?: string) => (await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })).status;

  it('answers 401 without a valid token, 403 to a scoped one, and lets the full token through', async () => {
    expect(await status()).toBe(401);
    expect(await status('wrong-token')).toBe(401);
    expect(await status('acme-token-1')).toBe(403);
    expect(await status('the-full-token-1')).toBe(200);
  });
});
