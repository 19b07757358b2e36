/**
 * A run's connector session, with real parts: the generic CRM syncs a loopback CRM that wants OAuth2 (single-use
 * refresh tokens, as amoCRM hands out) into the sandbox, through the engine and a SQLite store. Each run opens its
 * session (one authenticator, one limiter, one pair of keep-alive agents for its streams) and closes it at
 * its end: the CRM sees no socket left open. The token outlives the run in the store, not in the process: the next
 * run reads it there (another daemon's refresh included) and fetches none while it is fresh; once stale, exactly
 * one refresh, with the rotated token.
 * A call outside a run (`check`) opens and closes a session of its own.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { StoreRepositories } from '../../src/store/store-repositories';
import { E2eSync } from './e2e-harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A form POST on a socket of its own, closed after the answer (another process's request). */
function post(url: string, form: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    request.on('error', reject);
    request.end(form);
  });
}

/** Token endpoint with single-use refresh tokens; clients and deals (two pages) for a live access token. */
class OAuthCrm {
  url = '';
  refreshToken = 'rt-0';
  /** refresh tokens presented, in order */
  grants: string[] = [];
  /** access tokens the lists were asked with, request by request */
  used: string[] = [];
  /** sockets the CRM has open now, and every socket a run opened */
  readonly open = new Set<Socket>();
  sockets = 0;
  private readonly access = new Set<string>();
  private readonly server = http.createServer((req, res) => void this.answer(req, res));

  async start(): Promise<void> {
    this.server.on('connection', (socket: Socket) => {
      this.sockets++;
      this.open.add(socket);
      socket.on('close', () => this.open.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Waits up to a second for every socket to be closed by the client; the number still open. */
  async openAfterSettling(): Promise<number> {
    for (const until = Date.now() + 1_000; this.open.size > 0 && Date.now() < until; ) await sleep(20);
    return this.open.size;
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/oauth/token') {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      this.grants.push(String(form.get('refresh_token')));
      if (form.get('refresh_token') !== this.refreshToken) return send(400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
      const n = this.grants.length;
      this.refreshToken = `rt-${n}`;
      this.access.add(`at-${n}`);
      return send(200, { access_token: `at-${n}`, refresh_token: this.refreshToken, expires_in: 3600, token_type: 'bearer' });
    }
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (!this.access.has(token)) return send(401, { error: 'invalid_token' });
    this.used.push(token);
    if (url.pathname === '/clients') return send(200, { items: [{ id: 10, name: 'Client Ten' }] });
    if (url.pathname === '/deals') {
      const page = url.searchParams.get('cursor');
      const deals = (from: number) => [from, from + 1].map((id) => ({ id, created: '2025-03-10T09:00:00Z', client: 10 }));
      return send(200, page ? { items: deals(102) } : { items: deals(100), next: 'p2' });
    }
    send(404, { error: 'no route' });
  }
}

describe('e2e: a run opens its connector session and closes it; the OAuth2 token lives in the store', () => {
  jest.setTimeout(60_000);
  const crm = new OAuthCrm();
  let e2e: E2eSync;

  beforeAll(async () => {
    await crm.start();
    e2e = await E2eSync.start({
      connectionId: 'sessions',
      connector: 'generic-crm',
      settings: {
        base_url: crm.url,
        auth: { type: 'oauth2', token_url: '/oauth/token', client_id: 'cid', client_secret: 'session-secret', refresh_token: 'rt-0' },
        rate_limit: { requests: 50, per_seconds: 1 },
        retry: { base_ms: 5, max_attempts: 2 },
        streams: {
          managers: { enabled: false },
          clients: { request: { path: '/clients' }, records: 'items', mapping: { id: 'id', name: 'name' } },
          deals: {
            request: { path: '/deals' },
            records: 'items',
            paginator: { type: 'cursor', token_path: 'next', token_param: 'cursor' },
            mapping: { id: 'id', created_at: 'created', client_id: 'client' },
          },
        },
      },
    });
  });

  afterAll(async () => {
    await e2e?.stop();
    await crm.close();
  });

  const storedToken = async (): Promise<{ access_token: string; refresh_token: string; expires_at: number }> => {
    const rows: { value: string }[] = await e2e.store.query('SELECT value FROM connector_secret');
    expect(rows).toHaveLength(1);
    return JSON.parse(rows[0].value);
  };

  it('the first run fetches one token for its streams, keeps it in the store, and leaves no socket open', async () => {
    const run = await e2e.run();
    expect(run.status).toBe('succeeded');
    expect(run.streams).toMatchObject({ clients: { sent: 1 }, deals: { sent: 4 } });
    expect(crm.grants).toEqual(['rt-0']);
    expect(await storedToken()).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-1' });
    // three list requests and a token request went over the run's keep-alive agents: at most four sockets
    expect(crm.sockets).toBeGreaterThan(0);
    expect(crm.sockets).toBeLessThanOrEqual(4);
    expect(await crm.openAfterSettling()).toBe(0);
  });

  it('another daemon refreshed meanwhile: the next run takes the token from the store, fetches none, on new sockets', async () => {
    // the other daemon's refresh, and what it wrote to the store
    const other = (await post(`${crm.url}/oauth/token`, 'grant_type=refresh_token&refresh_token=rt-1')) as { access_token: string; refresh_token: string; expires_in: number };
    await e2e.store.query('UPDATE connector_secret SET value = ?', [
      JSON.stringify({ access_token: other.access_token, refresh_token: other.refresh_token, expires_at: Date.now() + other.expires_in * 1000 }),
    ]);
    const requestsBefore = crm.used.length;
    const socketsBefore = crm.sockets;
    const run = await e2e.run();
    expect(run.status).toBe('succeeded');
    expect(crm.grants).toEqual(['rt-0', 'rt-1']); // the second is the other daemon's
    expect(new Set(crm.used.slice(requestsBefore))).toEqual(new Set(['at-2'])); // nothing of the first run was kept
    expect(crm.sockets).toBeGreaterThan(socketsBefore); // its own agents: the first run's sockets are gone
    expect(await crm.openAfterSettling()).toBe(0);
  });

  it('a token gone stale in the store is refreshed once, with the rotated refresh token, by the run that needs it', async () => {
    const stale = await storedToken();
    await e2e.store.query('UPDATE connector_secret SET value = ?', [JSON.stringify({ ...stale, expires_at: 1 })]);
    const run = await e2e.run();
    expect(run.status).toBe('succeeded');
    expect(crm.grants).toEqual(['rt-0', 'rt-1', 'rt-2']);
    expect(await storedToken()).toMatchObject({ access_token: 'at-3', refresh_token: 'rt-3' });
    expect(await crm.openAfterSettling()).toBe(0);
  });

  it('check, outside any run, opens a session of its own and closes it', async () => {
    const connector = e2e.registry.get('generic-crm')!;
    const settings = e2e.registry.instantiateSettings('generic-crm', e2e.options.settings);
    const socketsBefore = crm.sockets;
    const secrets = new StoreRepositories(e2e.store).connectorSecrets.forConnector('generic-crm');
    const result = await connector.check(settings, { connectionId: 'sessions', settings, secrets, logger: { log: () => {}, warn: () => {} } });
    expect(result).toMatchObject({ ok: true });
    expect(crm.grants).toEqual(['rt-0', 'rt-1', 'rt-2']); // the token of the store, still fresh
    expect(crm.sockets).toBeGreaterThan(socketsBefore);
    expect(await crm.openAfterSettling()).toBe(0);
  });
});
