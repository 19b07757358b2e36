/**
 * Rotating OAuth2 refresh tokens are cluster state: two daemon processes on one PostgreSQL store read one CRM
 * account whose loopback token endpoint hands out single-use refresh tokens (each refresh voids the one before,
 * as amoCRM does) and access tokens the daemons take as stale after a second. Over several forced expiries both
 * keep syncing and no voided token is ever presented; a daemon killed while its refresh is in flight leaves the
 * lock to the other (its process is gone) and, restarted, goes on with the latest token from the store.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePostgres, TestSchema } from '../support/store-drivers';
import { buildIfStale, Proc, spawnEntry } from './support/processes';

const ADMIN_TOKEN = 'oauth-test-admin-token-5d0e';
const CLIENT_SECRET = 'oauth-test-client-secret-88';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Token endpoint with single-use refresh tokens, and a deals list that wants a live access token. */
class OAuthCrm {
  url = '';
  refreshToken = 'rt-0';
  issued = 0;
  voidedPresented: string[] = [];
  /** while set, a refresh waits here; a client that hangs up meanwhile rotates nothing */
  hold: Promise<void> | null = null;
  held = 0;
  /** held refreshes whose client hung up (the server saw its connection close) */
  hungUp = 0;
  private readonly access = new Map<string, number>();
  private server = http.createServer((req, res) => void this.answer(req, res));

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/oauth/token') {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      if (form.get('client_secret') !== CLIENT_SECRET) return send(401, { error: 'invalid_client' });
      if (form.get('refresh_token') !== this.refreshToken) {
        this.voidedPresented.push(String(form.get('refresh_token')));
        return send(400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
      }
      if (this.hold) {
        this.held++;
        let gone = false;
        res.on('close', () => {
          gone = !res.writableFinished;
          if (gone) this.hungUp++;
        });
        await this.hold;
        if (gone) return; // the answer never reached the client: nothing rotated
      }
      this.issued++;
      this.refreshToken = `rt-${this.issued}`;
      const accessToken = `at-${this.issued}`;
      this.access.set(accessToken, Date.now() + 5_000);
      // 61 s: the client takes a token as stale 60 s before its end, so after one second (a forced expiry)
      return send(200, { access_token: accessToken, refresh_token: this.refreshToken, expires_in: 61, token_type: 'bearer' });
    }
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (!((this.access.get(token) ?? 0) > Date.now())) return send(401, { error: 'invalid_token' });
    send(200, { items: [1, 2, 3].map((id) => ({ id, created: '2025-03-10T09:00:00Z' })) });
  }
}

function configYaml(dir: string, crmUrl: string): string {
  const connection = (id: string) => [
    `  - id: ${id}`,
    '    connector: generic-crm',
    '    settings:',
    `      base_url: ${crmUrl}`,
    `      auth: { type: oauth2, token_url: /oauth/token, client_id: cid, client_secret: ${CLIENT_SECRET}, refresh_token: rt-0 }`,
    '      retry: { base_ms: 5, max_attempts: 2 }',
    '      streams: { deals: { request: { path: /deals }, records: items, mapping: { id: id, created_at: created } } }',
  ];
  return [
    'server: { host: 127.0.0.1, port: 0 }',
    `data_dir: ${JSON.stringify(join(dir, 'unused'))}`,
    `admin: { token: ${ADMIN_TOKEN} }`,
    'log: { level: info, format: json }',
    'sandbox: { budget: off }',
    'connections:',
    ...connection('crm-a'),
    ...connection('crm-b'),
    '',
  ].join('\n');
}

async function api(url: string, method: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

describePostgres('cluster: rotating OAuth2 tokens shared by two daemons', () => {
  jest.setTimeout(120_000);
  const schema = new TestSchema();
  const crm = new OAuthCrm();
  let dir: string;
  let storeUrl: string;
  const daemons: { proc: Proc; url: string }[] = [];

  const startDaemon = async (n: number) => {
    const proc = spawnEntry(`daemon-${n}`, 'main', ['--config', join(dir, 'config.yaml')], { DATA_DIR: join(dir, `data-${n}`), DATABASE_URL: storeUrl, PORT: '0' });
    return { proc, url: (await proc.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1] };
  };

  /** Starts a run and waits for its end; its status. */
  const sync = async (daemon: { url: string }, connection: string): Promise<string> => {
    const started = await api(daemon.url, 'POST', `/api/connections/${connection}/sync`);
    expect(started.status).toBe(202);
    for (const until = Date.now() + 30_000; ; await sleep(100)) {
      const run = await api(daemon.url, 'GET', `/api/runs/${started.body.run_id}`);
      if (run.body?.status !== 'running') return `${run.body?.status}${run.body?.error ? `: ${run.body.error}` : ''}`;
      if (Date.now() > until) throw new Error(`run ${started.body.run_id} of ${connection} did not end in 30 s`);
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-oauth-'));
    storeUrl = await schema.create();
    await crm.start();
    writeFileSync(join(dir, 'config.yaml'), configYaml(dir, crm.url));
    buildIfStale();
    daemons.push(...(await Promise.all([1, 2].map(startDaemon))));
  }, 110_000);

  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.proc.stop()));
    await crm.close();
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps both daemons syncing over several forced expiries, one refresh at a time', async () => {
    for (let round = 0; round < 4; round++) {
      // both need a new token at once, for two connections of the same CRM account
      const [a, b] = round % 2 ? [daemons[1], daemons[0]] : [daemons[0], daemons[1]];
      expect(await Promise.all([sync(a, 'crm-a'), sync(b, 'crm-b')])).toEqual(['succeeded', 'succeeded']);
      await sleep(1_100); // the access token goes stale: the next round refreshes again
    }
    expect(crm.voidedPresented).toEqual([]);
    expect(crm.issued).toBeGreaterThanOrEqual(4);
    expect(crm.issued).toBeLessThanOrEqual(5); // one refresh per expiry, not one per daemon
  });

  it('a daemon killed in the middle of a refresh: the other takes over, and it resumes with the latest token', async () => {
    await sleep(1_100);
    let release!: () => void;
    crm.hold = new Promise<void>((resolve) => (release = resolve));
    const victim = daemons[0];
    const started = await api(victim.url, 'POST', '/api/connections/crm-a/sync');
    expect(started.status).toBe(202);
    for (const until = Date.now() + 10_000; crm.held === 0; await sleep(20)) {
      if (Date.now() > until) throw new Error('the refresh never reached the token endpoint');
    }
    victim.proc.proc.kill('SIGKILL'); // holding the refresh lock, its request in flight
    await victim.proc.exited;
    // released only once the server has seen the dead client's connection close: released before (a loaded machine
    // is slow to tell), the held refresh would rotate the token into a dead process, as a real CRM would
    for (const until = Date.now() + 10_000; crm.hungUp === 0; await sleep(20)) {
      if (Date.now() > until) throw new Error("the token endpoint never saw the killed daemon's connection close");
    }
    crm.hold = null;
    release();

    // the other daemon does not wait for the dead holder's lock to expire (45 s)
    const before = Date.now();
    expect(await sync(daemons[1], 'crm-b')).toBe('succeeded');
    expect(Date.now() - before).toBeLessThan(10_000);

    daemons[0] = await startDaemon(3);
    // the restarted daemon first resumes the run it was killed in (trigger startup): a sync asked meanwhile is 409
    for (const until = Date.now() + 30_000; (await api(daemons[0].url, 'GET', '/api/connections/crm-a')).body?.last_run?.status === 'running'; await sleep(100)) {
      if (Date.now() > until) throw new Error('the resumed run never ended');
    }
    expect(await sync(daemons[0], 'crm-a')).toBe('succeeded');
    await sleep(1_100);
    expect(await sync(daemons[0], 'crm-b')).toBe('succeeded'); // and refreshes from the latest token
    expect(crm.voidedPresented).toEqual([]);
  });
});
