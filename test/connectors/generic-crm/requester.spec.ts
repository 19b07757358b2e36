import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import connector from '../../../connectors/generic-crm';
import { CrmServer, FixtureHandler, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll } from '../read-helper';
import { customSettings, items } from './custom-source';

async function withServer<T>(handler: FixtureHandler, run: (server: CrmServer) => Promise<T>): Promise<T> {
  const server = await startCrmServer(handler);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

const twoPages: (r: { query: URLSearchParams }) => { items: unknown[]; next?: string } = (r) =>
  r.query.get('cursor') ? { items: items(3, 4) } : { items: items(1, 2), next: 'p2' };
const cursorPaging = { paginator: { type: 'cursor', token_path: 'next', token_param: 'cursor' } };

describe('generic-crm requester', () => {
  describe('OAuth2', () => {
    /** A token endpoint and an API that accepts only the latest token; `revoke()` makes the current one stale. */
    function oauthServer() {
      const state = { issued: 0, current: '', grants: [] as Record<string, string>[] };
      const handler: FixtureHandler = (r) => {
        if (r.path === '/oauth/token') return { status: 404 };
        if (r.headers.authorization !== `Bearer ${state.current}` || !state.current) {
          return { status: 401, body: { error: 'invalid_token' } };
        }
        return { body: twoPages(r) };
      };
      return { state, handler };
    }

    it('fetches the client-credentials token once, reuses it, and refreshes it after a 401', async () => {
      // each read is a session of its own: the token outlives it in the work folder's token file (no store here)
      const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-oauth-cc-'));
      const { state, handler } = oauthServer();
      await withServer(
        (r) => {
          if (r.method === 'POST' && r.path === '/oauth/token') {
            state.issued++;
            state.current = `access-${state.issued}`;
            return { body: { access_token: state.current, token_type: 'bearer', expires_in: 3600 } };
          }
          return handler(r, { url: '' });
        },
        async (server) => {
          const settings = customSettings(server.url, cursorPaging, {
            auth: { type: 'oauth2', token_url: '/oauth/token', client_id: 'cid', client_secret: 'client-secret-xyz' },
          });
          const first = await readAll(connector, 'deals', settings, { connectionId: 'oauth', workDir });
          expect(first.records).toHaveLength(4);
          expect(state.issued).toBe(1);
          await readAll(connector, 'deals', settings, { connectionId: 'oauth', workDir });
          expect(state.issued).toBe(1);
          state.current = 'revoked-by-server';
          const third = await readAll(connector, 'deals', settings, { connectionId: 'oauth', workDir });
          expect(third.records).toHaveLength(4);
          expect(state.issued).toBe(2);
          const tokenCalls = server.requests.filter((r) => r.path === '/oauth/token');
          expect(tokenCalls).toHaveLength(2);
        },
      );
      fs.rmSync(workDir, { recursive: true, force: true });
    });

    it('uses the refresh token, keeps the rotated one in the work folder, and never leaks secrets in errors', async () => {
      const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-oauth-'));
      const { state, handler } = oauthServer();
      await withServer(
        (r) => {
          if (r.path === '/oauth/token') {
            state.grants.push(r.body);
            state.issued++;
            state.current = `access-${state.issued}`;
            return { body: { access_token: state.current, refresh_token: `refresh-${state.issued + 1}`, expires_in: 86400 } };
          }
          return handler(r, { url: '' });
        },
        async (server) => {
          const auth = { type: 'oauth2', token_url: `${server.url}/oauth/token`, client_id: 'cid', client_secret: 'shh-secret', refresh_token: 'refresh-1' };
          const settings = customSettings(server.url, cursorPaging, { auth });
          await readAll(connector, 'deals', settings, { connectionId: 'rt', workDir });
          const cached = JSON.parse(fs.readFileSync(path.join(workDir, 'oauth2-token.json'), 'utf8'));
          expect(cached).toMatchObject({ access_token: 'access-1', refresh_token: 'refresh-2' });
          state.current = 'stale';
          await readAll(connector, 'deals', settings, { connectionId: 'rt', workDir });
          expect(state.issued).toBe(2);
          expect(state.grants).toEqual([
            { grant_type: 'refresh_token', refresh_token: 'refresh-1', client_id: 'cid', client_secret: 'shh-secret' },
            { grant_type: 'refresh_token', refresh_token: 'refresh-2', client_id: 'cid', client_secret: 'shh-secret' },
          ]);
          state.current = 'stale-again';
          state.issued = 100; // the token endpoint now fails: the error must not show any secret
          const failing = readAll(connector, 'deals', { ...settings, auth: { ...auth, token_url: `${server.url}/oauth/broken` } }, {
            connectionId: 'rt2',
          });
          const error: Error = await failing.then(() => new Error('no error'), (e: Error) => e);
          expect(error.message).toMatch(/OAuth2 token request to http:\/\/127\.0\.0\.1:\d+\/oauth\/broken failed: HTTP 401/);
          expect(error.message).not.toMatch(/shh-secret|refresh-\d|access-\d/);
        },
      );
      fs.rmSync(workDir, { recursive: true, force: true });
    });
  });

  it('sends header, basic and query-parameter credentials, and redacts them from error messages', async () => {
    const seen: string[] = [];
    await withServer(
      (r) => {
        seen.push(`${r.headers['x-api-key'] ?? ''}|${r.headers.authorization ?? ''}|${r.query.get('key') ?? ''}`);
        return { status: 403, body: { message: 'forbidden' } };
      },
      async (server) => {
        const variants = [
          { auth: { type: 'api_key_header', header: 'X-Api-Key', token: 'hdr-secret-1' } },
          { auth: { type: 'basic', username: 'bob', password: 'basic-pass-2' } },
          { auth: { type: 'query_param', param: 'key' }, token: 'qp-secret-3' },
        ];
        for (const extra of variants) {
          const read = readAll(connector, 'deals', customSettings(server.url, {}, extra), { connectionId: 'auth' });
          const error: Error = await read.then(() => new Error('no error'), (e: Error) => e);
          expect(error.message).toMatch(/^connection auth, stream deals, GET http:\/\/127\.0\.0\.1:\d+\/deals\S*: the CRM refused the connection's credentials \(settings\.token \/ settings\.auth\): HTTP 403: \{"message":"forbidden"\}$/);
          expect(error.message).not.toMatch(/secret|pass-2/);
        }
        expect(seen).toEqual(['hdr-secret-1||', `|Basic ${Buffer.from('bob:basic-pass-2').toString('base64')}|`, '||qp-secret-3']);
      },
    );
  });

  it('spaces requests by the per-source rate limit', async () => {
    await withServer(
      (r) => ({ body: { items: items(Number(r.query.get('cursor') ?? 1), Number(r.query.get('cursor') ?? 1)), next: String(Number(r.query.get('cursor') ?? 1) + 1) } }),
      async (server) => {
        const started = Date.now();
        const settings = customSettings(server.url, cursorPaging, { rate_limit: { requests: 5, per_seconds: 1 } });
        const { records } = await readAll(connector, 'deals', settings, { connectionId: 'slow', limit: 4 });
        expect(records).toHaveLength(4);
        expect(server.requests).toHaveLength(4);
        // 5 per second = one every 200 ms: four requests need at least three gaps
        expect(Date.now() - started).toBeGreaterThanOrEqual(580);
      },
    );
  });

  it('turns a JSON page cut in the middle into an error naming connection, stream and URL', async () => {
    await withServer(
      (r) => (r.query.get('cursor') ? { raw: '{"items":[{"id":3,"created":"2024-01-01T00:00:00Z"},{"id":4,"crea' } : { body: twoPages(r) }),
      async (server) => {
        const read = readAll(connector, 'deals', customSettings(server.url, cursorPaging), { connectionId: 'cut' });
        await expect(read).rejects.toThrow(
          /^connection cut, stream deals, GET http:\/\/127\.0\.0\.1:\d+\/deals\?cursor=p2: HTTP 200 answer is not valid JSON \(.*\) — the page was cut or is not JSON$/,
        );
      },
    );
  });

  it('turns a 200 answer carrying an error object into an error (one naming access: a refusal of the credentials)', async () => {
    await withServer(
      () => ({ body: { error: 'ACCESS_DENIED', error_description: 'Access denied for the webhook' } }),
      async (server) => {
        const read = readAll(connector, 'deals', customSettings(server.url, {}, { errors: [{ path: 'error', message_path: 'error_description' }] }), {
          connectionId: 'b24',
        });
        await expect(read).rejects.toThrow(
          /^connection b24, stream deals, GET http:\/\/127\.0\.0\.1:\d+\/deals: the CRM refused the connection's credentials \(settings\.token \/ settings\.auth\): HTTP 200 answer carries an error object \(error="ACCESS_DENIED": Access denied for the webhook\)$/,
        );
      },
    );
  });

  it('retries 5xx with backoff and gives up with a clear error', async () => {
    await withServer(
      () => ({ status: 502, raw: '<html>Bad gateway</html>' }),
      async (server) => {
        const read = readAll(connector, 'deals', customSettings(server.url), { connectionId: 'down' });
        await expect(read).rejects.toThrow(/^connection down, stream deals, GET .*\/deals: HTTP 502 \(gave up after 3 attempts\): <html>Bad gateway<\/html>$/);
        expect(server.requests).toHaveLength(3);
      },
    );
  });

  it('retries configured extra answers (a 400 that means "slow down")', async () => {
    let calls = 0;
    await withServer(
      () => (++calls === 1 ? { status: 400, body: { error: 'OPERATION_TIME_LIMIT' } } : { body: { items: items(1, 1) } }),
      async (server) => {
        const settings = customSettings(server.url, {}, { retry: { base_ms: 5, extra: [{ status: 400, body_contains: 'OPERATION_TIME_LIMIT' }] } });
        const { records } = await readAll(connector, 'deals', settings, { connectionId: 'extra' });
        expect(records).toHaveLength(1);
        expect(calls).toBe(2);
      },
    );
  });
});
