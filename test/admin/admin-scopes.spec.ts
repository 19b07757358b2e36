/**
 * Scoped admin tokens (admin.tokens) across EVERY admin route, on the real daemon with two projects on the embedded
 * sandbox: each route of the OpenAPI document × {full token, viewer of acme, operator of acme, operator of beta, no
 * token}, every request aimed at acme's connection, run or alert. A route the table does not name fails the test, so
 * a new route is classified before it ships; and every route of Nest's router under /api declares its scope.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ADMIN_SCOPE } from '../../src/admin/auth/admin-scope.decorator';
import { StoreRepositories } from '../../src/store/store-repositories';
import { api, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';

const FULL = 'full-admin-token-0001';
const TOKENS = {
  full: FULL,
  acmeViewer: 'acme-viewer-token-0001',
  acmeOperator: 'acme-operator-token-0001',
  betaOperator: 'beta-operator-token-0001',
  none: null,
} as const;
type Who = keyof typeof TOKENS;
const ACME = 'acme-sheet';
const BETA = 'beta-sheet';

/** What each route concerns; expected answers per token follow from it (EXPECTED). */
type Kind = 'list' | 'read' | 'operate' | 'installation';
const ROUTES: Record<string, Kind> = {
  'GET /api/connections': 'list',
  'GET /api/connections/{id}': 'read',
  'GET /api/connections/{id}/rejected': 'read',
  'POST /api/connections/{id}/sync': 'operate',
  'POST /api/connections/{id}/resync': 'operate',
  'POST /api/connections/{id}/flows/{flow}': 'operate',
  'POST /api/connections/{id}/write-back': 'operate',
  'POST /api/connections/{id}/deliver-leads': 'operate',
  'POST /api/connections/{id}/pause': 'operate',
  'POST /api/connections/{id}/resume': 'operate',
  'DELETE /api/connections/{id}/cursors': 'operate',
  'POST /api/connections/{id}/check': 'read',
  'POST /api/connections/{id}/preview': 'read',
  'GET /api/connections/{id}/discover': 'read',
  'GET /api/connections/{id}/stage-mapping': 'read',
  'GET /api/connections/{id}/resync-estimate': 'read',
  'GET /api/runs': 'list',
  'GET /api/runs/{id}': 'read',
  'GET /api/runs/{id}/rejected': 'read',
  'POST /api/runs/{id}/rejected/retry': 'operate',
  'GET /api/projects': 'list',
  'GET /api/session': 'list',
  'GET /api/alerts': 'list',
  'POST /api/alerts/{id}/test': 'installation',
  'GET /api/webhooks': 'list',
  'GET /api/cluster': 'installation',
  'GET /api/budget': 'installation',
  'POST /api/config/reload': 'installation',
};

/** 'same': the full token's answer to the same request (whatever the route answers: 200, 202, 400 for a flow the sheet has no settings of…). */
const EXPECTED: Record<Kind, Record<Who, number | 'same'>> = {
  list: { full: 200, acmeViewer: 200, acmeOperator: 200, betaOperator: 200, none: 401 },
  read: { full: 'same', acmeViewer: 'same', acmeOperator: 'same', betaOperator: 404, none: 401 },
  operate: { full: 'same', acmeViewer: 403, acmeOperator: 'same', betaOperator: 404, none: 401 },
  installation: { full: 'same', acmeViewer: 403, acmeOperator: 403, betaOperator: 403, none: 401 },
};
/** Refusals first (they change nothing), then the full token, then the operator whose answer must equal it. */
const ORDER: Who[] = ['none', 'betaOperator', 'acmeViewer', 'full', 'acmeOperator'];

/** `betaSheetIn`: the project beta's sheet feeds (a reload moves it to acme at the end). */
function config(dir: string, betaSheetIn = 'beta'): string {
  const demo = join(__dirname, '..', '..', 'config', 'demo');
  const sheet = (id: string, project: string) => [
    `  - id: ${id}`,
    '    connector: spreadsheet',
    `    project: ${project}`,
    '    settings:',
    `      deals: { path: ${JSON.stringify(join(demo, 'deals.csv'))}, status_map: { new: "0", in_work: "0", "142": "1", "143": "2" } }`,
  ];
  const file = join(dir, 'tracker-sync.yaml');
  writeFileSync(file, [
    `data_dir: ${JSON.stringify(join(dir, 'data'))}`,
    'sandbox: { seed: none, projects: 3 }',
    'projects:',
    '  acme: { project: "2" }',
    '  beta: { project: "3", rate_limit: { per_second: 6, per_hour: 3000 } }',
    'admin:',
    `  token: ${FULL}`,
    '  tokens:',
    `    - { name: acme-view, token: ${TOKENS.acmeViewer}, projects: [acme] }`,
    `    - { name: acme-ops, token: ${TOKENS.acmeOperator}, projects: [acme], role: operator }`,
    `    - { name: beta-ops, token: ${TOKENS.betaOperator}, projects: [beta], role: operator }`,
    'connections:',
    ...sheet(ACME, 'acme'),
    ...sheet(BETA, betaSheetIn),
    'alerts:',
    '  - { id: ops, type: webhook, url: "http://127.0.0.1:9/hook", connections: ["*"] }',
    `  - { id: acme-ops, type: webhook, url: "http://127.0.0.1:9/acme", connections: [${ACME}] }`,
    '  - { id: beta-watch, type: webhook, url: "http://127.0.0.1:9/beta", projects: [beta] }',
    '  - { id: both-watch, type: webhook, url: "http://127.0.0.1:9/both", projects: [acme, beta] }',
    `  - { id: beta-sheet-ops, type: webhook, url: "http://127.0.0.1:9/beta-sheet", connections: [${BETA}] }`,
    '',
  ].join('\n'));
  return file;
}

interface Answer {
  status: number;
  body: unknown;
}

describe('scoped admin tokens on every admin route', () => {
  const dir = tempDir('admin-scopes');
  let running: RunningDaemon;
  let acmeRun: number;
  let paths: Record<string, Record<string, unknown>>;

  beforeAll(async () => {
    running = await startDaemon({ LOG_LEVEL: 'error' }, config(dir.path));
    for (const id of [ACME, BETA]) {
      const started = await api<{ run_id: number }>(running.url, FULL, `/api/connections/${id}/sync`, { method: 'POST' });
      expect(started.status).toBe(202);
      const run = await waitForFinishedRun(running.url, FULL, id, started.body.run_id);
      if (id === ACME) acmeRun = run.id;
    }
    paths = (await api<{ paths: Record<string, Record<string, unknown>> }>(running.url, null, '/docs-json')).body.paths;
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  const routesOf = (doc: Record<string, Record<string, unknown>>) =>
    Object.entries(doc).filter(([path]) => path.startsWith('/api/')).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));

  it('classifies every route of the OpenAPI document, and only those', () => {
    expect(routesOf(paths).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('has every route of the router under /api declare its scope (@AdminScope)', () => {
    const undeclared: string[] = [];
    let routes = 0;
    for (const module of running.daemon.app.get(ModulesContainer).values()) {
      for (const { metatype } of module.controllers.values()) {
        if (!metatype) continue;
        const base = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
        if (!/^\/?api(\/|$)/.test(base)) continue;
        for (const name of Object.getOwnPropertyNames(metatype.prototype)) {
          const handler = (metatype.prototype as Record<string, unknown>)[name];
          if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
          routes++;
          if (!Reflect.getMetadata(ADMIN_SCOPE, handler)) undeclared.push(`${metatype.name}.${name}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
    expect(routes).toBe(Object.keys(ROUTES).length);
  });

  /** The request of a route aimed at acme's resources. */
  function requestOf(route: string): { path: string; init: RequestInit } {
    const [method, template] = route.split(' ');
    const id = template.startsWith('/api/runs/') ? String(acmeRun) : template.startsWith('/api/alerts/') ? 'acme-ops' : ACME;
    const path = template.replace('{id}', id).replace('{flow}', 'leads');
    const body = route.endsWith('/resync') ? {} : route.endsWith('/preview') ? { stream: 'deals', limit: 1 } : undefined;
    return { path, init: { method, body: body ? JSON.stringify(body) : undefined } };
  }

  async function call(who: Who, route: string): Promise<Answer> {
    const { path, init } = requestOf(route);
    let answer = await api(running.url, TOKENS[who], path, init);
    // the previous run's row may read finished a moment before its lease is let go: a 409 then is that moment, not an answer
    for (let tries = 0; answer.status === 409 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await api(running.url, TOKENS[who], path, init);
    }
    // a run started: let it end, so the next token's call finds the connection free
    const runId = (answer.body as { run_id?: number } | null)?.run_id;
    if (answer.status === 202 && runId) await waitForFinishedRun(running.url, FULL, ACME, runId);
    return answer;
  }

  it.each(Object.keys(ROUTES))('%s', async (route) => {
    const expected = EXPECTED[ROUTES[route]];
    const got: Partial<Record<Who, Answer>> = {};
    for (const who of ORDER) got[who] = await call(who, route);
    const full = got.full!.status;
    expect([401, 403, 404]).not.toContain(full);
    expect(full).toBeLessThan(500);
    const statuses = Object.fromEntries(ORDER.map((who) => [who, got[who]!.status]));
    const wanted = Object.fromEntries(ORDER.map((who) => [who, expected[who] === 'same' ? full : expected[who]]));
    expect(statuses).toEqual(wanted);
    // a scoped token's answers never name the other project's connection
    for (const who of ['acmeViewer', 'acmeOperator'] as const) expect(JSON.stringify(got[who]!.body)).not.toContain(BETA);
    // (its 404 echoes the id it asked for, as for any unknown id: the test below compares the two)
    if (got.betaOperator!.status !== 404) expect(JSON.stringify(got.betaOperator!.body)).not.toContain(ACME);
  }, 60_000);

  it("answers another project's connection and run exactly as an id that does not exist", async () => {
    const beta = TOKENS.betaOperator;
    const pairs: [string, string, string][] = [
      [`/api/connections/${ACME}`, '/api/connections/no-such-sheet', 'no-such-sheet'],
      [`/api/connections/${ACME}/rejected`, '/api/connections/no-such-sheet/rejected', 'no-such-sheet'],
      [`/api/runs/${acmeRun}`, '/api/runs/999999', '999999'],
      [`/api/runs/${acmeRun}/rejected`, '/api/runs/999999/rejected', '999999'],
    ];
    for (const [hidden, unknown, unknownId] of pairs) {
      const real = ACME === hidden.split('/')[3] ? ACME : String(acmeRun);
      const a = await api(running.url, beta, hidden);
      const b = await api(running.url, beta, unknown);
      expect([a.status, b.status]).toEqual([404, 404]);
      expect(a.body).toEqual(JSON.parse(JSON.stringify(b.body).split(unknownId).join(real)));
    }
  });

  it('lists only the connections, runs and projects of the token', async () => {
    const ids = async (token: string, path: string, key: string, field: string) =>
      ((await api<Record<string, Record<string, string>[]>>(running.url, token, path)).body[key]).map((item) => item[field]);
    expect(await ids(FULL, '/api/connections', 'connections', 'id')).toEqual([ACME, BETA]);
    expect(await ids(TOKENS.acmeViewer, '/api/connections', 'connections', 'id')).toEqual([ACME]);
    expect(await ids(TOKENS.betaOperator, '/api/connections', 'connections', 'id')).toEqual([BETA]);
    expect(await ids(FULL, '/api/connections?project=beta', 'connections', 'id')).toEqual([BETA]);
    expect(await ids(TOKENS.acmeViewer, '/api/connections?project=beta', 'connections', 'id')).toEqual([]);
    expect(new Set(await ids(TOKENS.acmeViewer, '/api/runs', 'runs', 'connection_id'))).toEqual(new Set([ACME]));
    expect(await ids(TOKENS.acmeViewer, '/api/runs?connection=beta-sheet', 'runs', 'id')).toEqual([]);
    expect(await ids(FULL, '/api/projects', 'projects', 'name')).toEqual(['default', 'acme', 'beta']);
    expect(await ids(TOKENS.acmeOperator, '/api/projects', 'projects', 'name')).toEqual(['acme']);
    const alerts = (await api<{ alerts: { id: string; connections: string[] }[] }>(running.url, TOKENS.acmeViewer, '/api/alerts')).body.alerts;
    // alerts[].projects: a project's alert is its clients' to see, with the other projects it watches left out
    expect(alerts).toEqual([
      expect.objectContaining({ id: 'acme-ops', connections: [ACME] }),
      expect.objectContaining({ id: 'both-watch', connections: ['*'], projects: ['acme'] }),
    ]);
    const betaAlerts = (await api<{ alerts: { id: string }[] }>(running.url, TOKENS.betaOperator, '/api/alerts')).body.alerts;
    expect(betaAlerts.map((a) => a.id)).toEqual(['beta-watch', 'both-watch', 'beta-sheet-ops']);
  });

  it("shows a scoped token the conditions and messages of its alerts only, not an installation-wide alert's on its connection", async () => {
    const alerts = running.daemon.app.get(StoreRepositories).alerts;
    for (const alertId of ['ops', 'acme-ops']) {
      await alerts.raise({ alertId, connectionId: ACME, event: 'run_failed' }, { runId: acmeRun, message: `${alertId} fired` }, 60_000);
      const delivery = await alerts.addDelivery({ alert_id: alertId, type: 'webhook', event: 'run_failed', connection_id: ACME, run_id: acmeRun, reminder: false, message: `${alertId} fired` });
      await alerts.updateDelivery(delivery.id, { status: 'failed', attempts: 1, last_error: `SMTP of ${alertId} refused` });
    }
    type Listed = { active: { alert_id: string }[]; deliveries: { alert_id: string }[]; total: number };
    const ids = (listed: Listed) => ({ active: new Set(listed.active.map((a) => a.alert_id)), deliveries: new Set(listed.deliveries.map((d) => d.alert_id)) });
    const ofAcme = ids((await api<Listed>(running.url, TOKENS.acmeViewer, '/api/alerts?limit=100')).body);
    expect({ active: ofAcme.active.has('ops'), deliveries: ofAcme.deliveries.has('ops') }).toEqual({ active: false, deliveries: false });
    expect({ active: ofAcme.active.has('acme-ops'), deliveries: ofAcme.deliveries.has('acme-ops') }).toEqual({ active: true, deliveries: true });
    expect((await api<Listed>(running.url, TOKENS.acmeViewer, '/api/alerts?alert=ops')).body.total).toBe(0);
    const ofAll = ids((await api<Listed>(running.url, FULL, '/api/alerts?limit=100')).body);
    expect({ active: ofAll.active.has('ops'), deliveries: ofAll.deliveries.has('ops') }).toEqual({ active: true, deliveries: true });
  });

  it('GET /api/projects: each project with its number, connections, their last syncs, budget and open rejections', async () => {
    interface Project { name: string; number: string | null; connections: string[]; last_runs: Record<string, { id: number; connection_id: string } | null>; budget: unknown; open_rejections: { total: number; by_connection: Record<string, number> } }
    const { status, body } = await api<{ projects: Project[] }>(running.url, FULL, '/api/projects');
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.projects.map((p) => [p.name, p]));
    expect(byName.default).toMatchObject({ connections: [], last_runs: {}, open_rejections: { total: 0, by_connection: {} } });
    expect(byName.default.budget).toEqual(expect.objectContaining({ per_second: 8, per_hour: 4000, used_this_second: expect.any(Number), used_this_hour: expect.any(Number) }));
    // each project's own budget: acme takes tracker.rate_limit's share, beta its own
    expect(byName.acme).toMatchObject({ number: '2', connections: [ACME], budget: expect.objectContaining({ per_second: 8, per_hour: 4000 }) });
    expect(byName.beta).toMatchObject({ number: '3', connections: [BETA], budget: expect.objectContaining({ per_second: 6, per_hour: 3000 }) });
    for (const [name, id] of [['acme', ACME], ['beta', BETA]]) {
      const runs = await api<{ runs: { id: number; direction: string }[] }>(running.url, FULL, `/api/runs?connection=${id}&limit=50`);
      const lastSync = runs.body.runs.find((run) => run.direction !== 'outbound')!;
      expect(byName[name].last_runs[id]).toMatchObject({ id: lastSync.id, connection_id: id });
      const open = await api<{ total: number }>(running.url, FULL, `/api/connections/${id}/rejected?limit=1`);
      expect(byName[name].open_rejections).toEqual({ total: open.body.total, by_connection: { [id]: open.body.total } });
    }
  });

  // last: it moves beta's sheet to acme for good
  it("a connection id moved to another project: its tokens see the connection, none of what it made in the project before; the full token sees it all", async () => {
    const acme = TOKENS.acmeViewer;
    const get = <T>(token: string, path: string) => api<T>(running.url, token, path);
    // beta's history of the sheet: a run with rejected records (their excerpts), open rejections, a webhook call, its alert's condition and message
    const betaRun = (await get<{ runs: { id: number; rejected_count: number }[] }>(FULL, `/api/runs?connection=${BETA}`)).body.runs[0];
    expect(betaRun.rejected_count).toBeGreaterThan(0);
    const store = running.daemon.app.get(StoreRepositories);
    await store.webhookCalls.record({ connectionId: BETA, at: new Date(), outcome: 'accepted', acceptedAt: new Date(), project: 'beta' });
    await store.alerts.raise({ alertId: 'beta-sheet-ops', connectionId: BETA, event: 'run_failed' }, { runId: betaRun.id, message: 'beta-sheet failed', project: 'beta' }, 60_000);
    await store.alerts.addDelivery({ alert_id: 'beta-sheet-ops', type: 'webhook', event: 'run_failed', connection_id: BETA, run_id: betaRun.id, reminder: false, message: 'beta-sheet failed', project: 'beta' });

    config(dir.path, 'acme');
    const reload = await api(running.url, FULL, '/api/config/reload', { method: 'POST' });
    expect(reload.body).toMatchObject({ changed: [BETA], moved: [{ connection: BETA, from: 'beta', to: 'acme' }], restart_required: [] });

    // acme's viewer: the connection is acme's now, its history in beta is not (404 as for any unknown id, empty lists)
    expect((await get(acme, `/api/connections/${BETA}`)).body).toMatchObject({ project: 'acme', last_run: null });
    expect((await get(acme, `/api/runs?connection=${BETA}`)).body).toMatchObject({ runs: [], total: 0 });
    expect([(await get(acme, `/api/runs/${betaRun.id}`)).status, (await get(acme, `/api/runs/${betaRun.id}/rejected`)).status]).toEqual([404, 404]);
    expect((await get(acme, `/api/connections/${BETA}/rejected`)).body).toMatchObject({ rejected: [], total: 0 });
    const projects = (await get<{ projects: { name: string; last_runs: Record<string, unknown>; open_rejections: { by_connection: Record<string, number> } }[] }>(acme, '/api/projects')).body.projects;
    expect(projects[0]).toMatchObject({ name: 'acme', last_runs: { [BETA]: null }, open_rejections: { by_connection: { [BETA]: 0 } } });
    expect((await get<{ connection: string; last_call_at: string | null }[]>(acme, '/api/webhooks')).body.find((w) => w.connection === BETA)).toMatchObject({ last_call_at: null });
    expect((await get(acme, `/api/connections/${BETA}/resync-estimate`)).body).toMatchObject({ runs_looked_at: 0 });
    const alerts = (await get<{ alerts: { id: string }[]; active: { connection_id: string }[]; deliveries: { connection_id: string }[] }>(acme, '/api/alerts?limit=100')).body;
    expect(alerts.alerts.map((a) => a.id)).toEqual(['acme-ops', 'both-watch']);
    expect([...alerts.active, ...alerts.deliveries].filter((row) => row.connection_id === BETA)).toEqual([]);
    // beta's token: the connection has left it
    expect((await get(TOKENS.betaOperator, `/api/runs/${betaRun.id}`)).status).toBe(404);
    // the full token: every row, each with its project
    expect((await get(FULL, `/api/runs/${betaRun.id}`)).body).toMatchObject({ project: 'beta', connection_id: BETA });
    expect((await get<{ total: number }>(FULL, `/api/runs/${betaRun.id}/rejected`)).body.total).toBe(betaRun.rejected_count);

    // its first run in acme is acme's: the whole history sent there, seen by acme's tokens
    const started = await api<{ run_id: number }>(running.url, FULL, `/api/connections/${BETA}/sync`, { method: 'POST' });
    const moved = await waitForFinishedRun(running.url, FULL, BETA, started.body.run_id);
    expect(moved.streams.deals.sent).toBe(994);
    expect((await get<{ runs: { id: number; project: string }[] }>(acme, `/api/runs?connection=${BETA}`)).body.runs).toEqual([expect.objectContaining({ id: moved.id, project: 'acme' })]);
    expect((await get(acme, `/api/connections/${BETA}`)).body).toMatchObject({ last_run: { id: moved.id } });
  }, 60_000);
});
