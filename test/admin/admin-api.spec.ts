import type { INestApplication } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import request from 'supertest';
import { GOOD_TOKEN } from './fixtures/test-connector';
import { eventually, removeDir, SANDBOX_KEY, startAdminApp, startSandbox, tempDataDir } from './admin-test-app';

const ADMIN_TOKEN = 'admin-token-for-tests-5f2c';
const SLOW_TOKEN = 'slow-secret-token-777';
const BROKEN_TOKEN = 'bad-secret-token-999';
const SECRETS = [GOOD_TOKEN, SLOW_TOKEN, BROKEN_TOKEN, SANDBOX_KEY];

/** The admin API over real HTTP: real store, engine, scheduler, and a loopback sandbox as the service. */
describe('admin REST API', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication;
  let url: string;
  let dataDir: string;
  const bodies: unknown[] = [];

  beforeAll(async () => {
    delete process.env.ADMIN_TOKEN;
    sandbox = await startSandbox();
    dataDir = tempDataDir();
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connections: [
        { id: 'crm', connector: 'test-source', schedule: '0 0 1 1 *', settings: { token: GOOD_TOKEN, deals: 5, bad_row: 'r3' } },
        { id: 'slow', connector: 'test-source', settings: { token: SLOW_TOKEN, deals: 3, delay_ms: 1500 } },
        { id: 'broken', connector: 'test-source', settings: { token: BROKEN_TOKEN, deals: 1 } },
      ],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  /** Every answer goes through here so the last test can scan them all for secrets. */
  async function api(method: 'get' | 'post' | 'delete', path: string, body?: object, token: string | null = ADMIN_TOKEN) {
    let req = request(url)[method](path);
    if (token !== null) req = req.set('Authorization', `Bearer ${token}`);
    const res = body === undefined ? await req : await req.send(body);
    bodies.push(res.body);
    return res;
  }

  const finished = (runId: number) =>
    eventually(async () => {
      const res = await api('get', `/api/runs/${runId}`);
      return res.body.status !== 'running' && res.body;
    });

  describe('authentication', () => {
    it('answers 401 without a token and with a wrong one', async () => {
      const none = await api('get', '/api/connections', undefined, null);
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      expect((await api('get', '/api/runs', undefined, 'wrong-token')).status).toBe(401);
      expect((await api('post', '/api/connections/crm/sync', undefined, `${ADMIN_TOKEN}x`)).status).toBe(401);
      expect((await request(url).get('/api/runs').set('Authorization', `Basic ${ADMIN_TOKEN}`)).status).toBe(401);
    });

    it('answers 401 on any path under /api without the token, even one with no route', async () => {
      expect((await api('get', '/api/nothing-here', undefined, null)).status).toBe(401);
      expect((await api('get', '/api', undefined, null)).status).toBe(401);
      expect((await api('get', '/api/nothing-here')).status).toBe(404);
    });

    it('leaves /health and /docs open and declares bearer auth in the OpenAPI document', async () => {
      expect((await request(url).get('/health')).status).toBe(200);
      expect((await request(url).get('/docs')).status).toBe(200);
      const doc = await request(url).get('/docs-json');
      expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/connections/{id}/resync', '/api/runs/{id}/rejected']));
    });
  });

  describe('connections', () => {
    it('lists connections with state and redacted settings', async () => {
      const res = await api('get', '/api/connections');
      expect(res.status).toBe(200);
      const crm = res.body.connections.find((c: { id: string }) => c.id === 'crm');
      expect(crm).toMatchObject({ connector: 'test-source', state: 'idle', paused: false, schedule: '0 0 1 1 *', last_run: null });
      expect(crm.settings.token).toBe('***');
      expect(Date.parse(crm.next_run_at)).toBeGreaterThan(Date.now());
    });

    it('answers 404 for an unknown connection on every route', async () => {
      for (const [method, path] of [
        ['get', '/api/connections/nope'],
        ['post', '/api/connections/nope/sync'],
        ['post', '/api/connections/nope/resync'],
        ['post', '/api/connections/nope/pause'],
        ['post', '/api/connections/nope/check'],
        ['post', '/api/connections/nope/preview'],
        ['delete', '/api/connections/nope/cursors'],
      ] as const) {
        const res = await api(method, path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
    });

    it('starts a sync (202), then shows its counters, rejected records, cursors and last run', async () => {
      const res = await api('post', '/api/connections/crm/sync');
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ run_id: expect.any(Number) });
      const run = await finished(res.body.run_id);
      expect(run).toMatchObject({ id: res.body.run_id, connection_id: 'crm', mode: 'incremental', trigger: 'admin', status: 'succeeded', rejected_count: 1 });
      expect(Object.keys(run.counters).sort()).toEqual([
        'processed', 'saved', 'skipped_because_not_changed', 'skipped_by_internal_error', 'skipped_by_invalid_format',
        'skipped_by_status', 'skipped_by_waiting_visit_info', 'skipped_fields_by_invalid_format', 'uploaded',
      ]);
      // read counts the row the source could not read too
      expect(run.streams.deals).toMatchObject({ read: 6, sent: 5, rejected: 1 });

      const rejected = await api('get', `/api/runs/${run.id}/rejected`);
      expect(rejected.body).toMatchObject({ total: 1, rejected: [{ stream: 'deals', external_id: 'r3', field: 'created_at', ref: 'deals.json item 99' }] });

      const detail = await api('get', '/api/connections/crm');
      expect(detail.body).toMatchObject({ state: 'idle', last_run: { id: run.id, status: 'succeeded' } });
      expect(detail.body.cursors.deals.value).toBeTruthy();
    });

    it('answers one 202 and one 409 carrying the running id when two syncs are triggered at once', async () => {
      const answers = await Promise.all([api('post', '/api/connections/slow/sync'), api('post', '/api/connections/slow/sync')]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([202, 409]);
      const accepted = answers.find((a) => a.status === 202)!;
      const conflict = answers.find((a) => a.status === 409)!;
      expect(conflict.body.run_id).toBe(accepted.body.run_id);
      expect((await api('get', '/api/connections/slow')).body.state).toBe('running');
      expect((await api('post', '/api/connections/slow/resync')).status).toBe(409);
      await finished(accepted.body.run_id);
    });

    it('resyncs from a day on, or fully without a body', async () => {
      const since = await api('post', '/api/connections/crm/resync', { since: '2025-01-01' });
      expect(since.status).toBe(202);
      expect(await finished(since.body.run_id)).toMatchObject({ mode: 'since', since: '2025-01-01', status: 'succeeded' });
      const full = await api('post', '/api/connections/crm/resync');
      expect(full.status).toBe(202);
      expect(await finished(full.body.run_id)).toMatchObject({ mode: 'full', since: null });
    });

    it('accepts a trigger sent the moment the run before reads ended, run after run (no 409)', async () => {
      let runId: number = (await api('post', '/api/connections/crm/sync')).body.run_id;
      for (let round = 1; round <= 5; round++) {
        // a client polling as fast as the answers come, then triggering the next run at once
        while ((await api('get', `/api/runs/${runId}`)).body.status === 'running');
        const next = await api('post', round % 2 ? '/api/connections/crm/sync' : '/api/connections/crm/resync');
        expect({ round, status: next.status, body: next.body }).toEqual({ round, status: 202, body: { run_id: expect.any(Number) } });
        runId = next.body.run_id;
      }
      await finished(runId);
    });

    it('answers 400 listing each problem of a bad body', async () => {
      const badDate = await api('post', '/api/connections/crm/resync', { since: '2025-13-45' });
      expect(badDate.status).toBe(400);
      expect(badDate.body.message).toEqual([expect.stringContaining('since must be a date YYYY-MM-DD')]);
      const two = await api('post', '/api/connections/crm/resync', { since: '2025-02-30', extra: 1 });
      expect(two.status).toBe(400);
      expect(two.body.message).toHaveLength(2);
      const preview = await api('post', '/api/connections/crm/preview', { stream: 'nope', limit: 0 });
      expect(preview.status).toBe(400);
      expect(preview.body.message.join('\n')).toMatch(/stream[\s\S]*limit|limit[\s\S]*stream/);
    });

    it('pauses (the cron job goes) and resumes (it comes back)', async () => {
      const jobs = app.get(SchedulerRegistry);
      expect(jobs.doesExist('cron', 'connection:crm')).toBe(true);
      const paused = await api('post', '/api/connections/crm/pause');
      expect(paused.status).toBe(200);
      expect(paused.body).toMatchObject({ paused: true, state: 'paused', next_run_at: null });
      expect(jobs.doesExist('cron', 'connection:crm')).toBe(false);
      const resumed = await api('post', '/api/connections/crm/resume');
      expect(resumed.body).toMatchObject({ paused: false });
      expect(jobs.doesExist('cron', 'connection:crm')).toBe(true);
      expect(Date.parse(resumed.body.next_run_at)).toBeGreaterThan(Date.now());
    });

    it('clears the cursors', async () => {
      const res = await api('delete', '/api/connections/crm/cursors');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ connection_id: 'crm', cleared: 1 });
      expect((await api('get', '/api/connections/crm')).body.cursors).toEqual({});
    });

    it("runs the connector's check without echoing its secrets", async () => {
      const ok = await api('post', '/api/connections/crm/check');
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ connection_id: 'crm', ok: true, message: expect.stringMatching(/^service: ok: .*; source: ok: reached the test source$/) });
      expect(ok.body.checks.map((c: { name: string }) => c.name)).toEqual(['service', 'source']);
      const failed = await api('post', '/api/connections/broken/check');
      expect(failed.body.ok).toBe(false);
      expect(failed.body.checks[0]).toMatchObject({ name: 'service', ok: true });
      expect(failed.body.checks[1]).toMatchObject({ name: 'source', ok: false, message: expect.stringContaining('answered 401') });
      expect(failed.body.message).not.toContain(BROKEN_TOKEN);
    });

    it('previews canonical records and payloads without sending', async () => {
      const before = (await api('get', '/api/runs?connection=crm')).body.total;
      const res = await api('post', '/api/connections/crm/preview', { stream: 'deals', limit: 2 });
      expect(res.status).toBe(200);
      const deals = res.body.streams.find((s: { stream: string }) => s.stream === 'deals');
      expect(deals.records).toHaveLength(2);
      expect(deals.records[0]).toMatchObject({ record: { id: 'd1' }, problems: [] });
      expect(deals.records[0].payload).toBeTruthy();
      expect((await api('get', '/api/runs?connection=crm')).body.total).toBe(before);
    });
  });

  describe('runs', () => {
    it('lists runs newest first, filtered by connection and status, paged', async () => {
      const all = await api('get', '/api/runs?connection=crm&limit=2&offset=0');
      expect(all.status).toBe(200);
      expect(all.body.runs).toHaveLength(2);
      expect(all.body.runs[0].id).toBeGreaterThan(all.body.runs[1].id);
      expect(all.body.total).toBeGreaterThanOrEqual(3);
      const succeeded = await api('get', '/api/runs?status=succeeded&limit=100');
      expect(succeeded.body.runs.every((r: { status: string }) => r.status === 'succeeded')).toBe(true);
      expect((await api('get', '/api/runs?connection=nobody')).body).toMatchObject({ runs: [], total: 0 });
    });

    it('answers 400 listing each problem of a bad query', async () => {
      const res = await api('get', '/api/runs?limit=-1&status=bogus&offset=x');
      expect(res.status).toBe(400);
      const text = res.body.message.join('\n');
      expect(text).toMatch(/limit/);
      expect(text).toMatch(/status/);
      expect(text).toMatch(/offset/);
      expect((await api('get', '/api/runs/abc')).status).toBe(400);
    });

    it('answers 404 for an unknown run', async () => {
      expect((await api('get', '/api/runs/99999')).status).toBe(404);
      expect((await api('get', '/api/runs/99999/rejected')).status).toBe(404);
      expect((await api('post', '/api/runs/99999/rejected/retry')).status).toBe(404);
    });

    it('retries the rejected records of a run in a new run (202)', async () => {
      const withRejected = (await api('get', '/api/runs?connection=crm&status=succeeded')).body.runs.find(
        (r: { rejected_count: number }) => r.rejected_count > 0,
      );
      const res = await api('post', `/api/runs/${withRejected.id}/rejected/retry`);
      expect(res.status).toBe(202);
      expect(res.body.run_id).toBeGreaterThan(withRejected.id);
      expect(await finished(res.body.run_id)).toMatchObject({ mode: 'retry', trigger: 'admin' });
    });
  });

  it('never answers with a secret (every JSON body above scanned)', () => {
    expect(bodies.length).toBeGreaterThan(40);
    const text = JSON.stringify(bodies);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});
