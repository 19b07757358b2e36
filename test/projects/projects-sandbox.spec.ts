/**
 * Issue 41, "Done when": three projects on the embedded sandbox, one key owning them all. The daemon runs each
 * connection against its own project: its orders land there, `check` reads that project's statuses, its run lines
 * and metrics name it. One project has a tiny budget (1 request/s) and meets a 429 storm (another integration
 * draining its budget at the service): its run is slow while the other projects' runs keep the pace they had
 * without it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ProjectStatusesCheck } from '../../src/application/connections/project-statuses-check';
import type { ConnectionConfig } from '../../src/config';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { api, RunJson, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';

const TOKEN = 'projects-admin-token-5c1e';
const KEY = 'sandbox-agency-key-7d2f90';
const PROJECTS = { acme: '2', beta: '3', storm: '4' } as const;

/**
 * The bundled demo deals without their visit numbers: a fresh project knows no visits, and the service holds an
 * order whose visit it does not know (skipped_by_waiting_visit_info) instead of listing it.
 */
function dealsWithoutVisits(dir: string): string {
  const file = join(dir, 'deals.csv');
  // byte for byte (Windows-1251): only the 8th field, visit_id, is emptied; no field before it is quoted
  const lines = readFileSync('config/demo/deals.csv', 'latin1').split('\n');
  writeFileSync(file, lines.map((line, i) => {
    if (i === 0 || line.trim() === '') return line;
    const fields = line.split(';');
    fields[7] = '';
    return fields.join(';');
  }).join('\n'), 'latin1');
  return file;
}

/** The demo sheet (300 clients, 1,000 deals) as a connection of `project`, run only when asked. */
function demoConnection(id: string, project: keyof typeof PROJECTS, deals: string) {
  return {
    id, connector: 'spreadsheet', project, run_on_start: false,
    settings: {
      deals: { path: deals, status_map: { new: '0', in_work: '0', 142: '1', 143: '2' } },
      clients: { path: './config/demo/clients.csv' },
      managers: { path: './config/demo/managers.csv' },
    },
  };
}

function configFile(dir: string): string {
  const file = join(dir, 'tracker-sync.yaml');
  const deals = dealsWithoutVisits(dir);
  writeFileSync(file, stringify({
    data_dir: dir,
    server: { host: '127.0.0.1', port: 0 },
    tracker: { batch_size: 100, retries: 10 },
    // the key owns the sandbox's project 1 and the agency's three more (sandbox.projects)
    sandbox: { seed: 'none', api_key: KEY, projects: 4 },
    projects: {
      acme: { project: PROJECTS.acme },
      beta: { project: PROJECTS.beta },
      storm: { project: PROJECTS.storm, rate_limit: { per_second: 1, per_hour: 4000 } },
    },
    connections: [
      demoConnection('acme-calm', 'acme', deals), demoConnection('beta-calm', 'beta', deals),
      demoConnection('acme-busy', 'acme', deals), demoConnection('beta-busy', 'beta', deals), demoConnection('storm-sheet', 'storm', deals),
    ],
  }));
  return file;
}

function durationMs(run: RunJson): number {
  return Date.parse(run.finished_at!) - Date.parse(run.started_at);
}

describe('three projects on the embedded sandbox', () => {
  const dataDir = tempDir('projects');
  let running: RunningDaemon;
  let sandboxUrl: string;
  const clientOf = (project: string) => new TrackerClient({ baseUrl: sandboxUrl, apiKey: KEY, project, rateLimit: 'off', retries: 3, retryBaseMs: 200 });

  /** Starts the connections' syncs at once through the admin API and waits for each to end. */
  async function syncTogether(ids: string[]): Promise<Record<string, RunJson>> {
    const started = await Promise.all(ids.map((id) => api<{ run_id: number }>(running.url, TOKEN, `/api/connections/${id}/sync`, { method: 'POST' })));
    for (const answer of started) expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 202 });
    const runs = await Promise.all(ids.map((id, i) => waitForFinishedRun(running.url, TOKEN, id, started[i].body.run_id, 120_000)));
    return Object.fromEntries(ids.map((id, i) => [id, runs[i]]));
  }

  beforeAll(async () => {
    running = await startDaemon({ DATA_DIR: dataDir.path, ADMIN_TOKEN: TOKEN }, configFile(dataDir.path));
    sandboxUrl = `${running.url}/sandbox/api/v1`;
    // the sandbox hosts them all, owned by the one key
    const listed = await fetch(`${sandboxUrl}/user/projects`, { headers: { 'Api-key': KEY } });
    const ids = ((await listed.json()) as { projects: { id: number }[] }).projects.map((project) => String(project.id));
    expect(ids).toEqual(expect.arrayContaining(Object.values(PROJECTS)));
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dataDir.remove();
  });

  it('checks each connection against its own project: its number and its statuses', async () => {
    const beta = clientOf(PROJECTS.beta);
    const statuses = await beta.orders.listStatuses();
    await beta.orders.setStatuses([...statuses, { id: '77', name: 'Beta only', type: 'progress' }]);
    await beta.close();
    const check = (id: string) => api<{ ok: boolean; checks: { name: string; message: string }[] }>(running.url, TOKEN, `/api/connections/${id}/check`, { method: 'POST' });
    expect((await check('acme-calm')).body.checks[0].message).toBe('the embedded sandbox accepts the Api-key for project 2 (acme)');
    expect((await check('beta-calm')).body.checks[0].message).toBe('the embedded sandbox accepts the Api-key for project 3 (beta)');
    // check's status review (a CRM connection's status_map) reads the dictionary of the connection's project
    const review = (project: string) => running.daemon.app.get(ProjectStatusesCheck).review(
      { id: `crm-${project}`, connector: 'generic-crm', project, settings: { status_map: { won: '77' } } } as unknown as ConnectionConfig,
      undefined, { connectionId: `crm-${project}`, settings: {}, logger: { log: () => undefined, warn: () => undefined }, signal: AbortSignal.timeout(10_000), workDir: dataDir.path, secrets: undefined as never });
    const [ofBeta, ofAcme] = [await review('beta'), await review('acme')];
    expect(ofBeta.statuses?.map((status) => status.id)).toContain('77');
    expect(ofBeta.warnings).toEqual([]);
    expect(ofAcme.statuses?.map((status) => status.id)).not.toContain('77');
    expect(ofAcme.warnings).toEqual([expect.stringContaining('status_map: target "77" (for "won") is not a status of the project')]);
  });

  it('a 429 storm on the project with a tiny budget slows its run only; the others keep their pace', async () => {
    // the pace of acme and beta without the storm
    const calm = await syncTogether(['acme-calm', 'beta-calm']);
    for (const run of Object.values(calm)) expect({ id: run.connection_id, status: run.status, error: run.error }).toEqual({ id: run.connection_id, status: 'succeeded', error: null });

    // another integration of project 4 drains its budget at the service for the first seconds of the runs
    let storm429 = 0;
    const flood = setInterval(() => {
      fetch(`${sandboxUrl}/project/settings/counter/list?project=${PROJECTS.storm}`, { headers: { 'Api-key': KEY } })
        // the service answers a spent budget 429, or 200 with error request_limit_error as the sandbox does
        .then(async (res) => { if (res.status === 429 || (await res.text()).includes('request_limit_error')) storm429 += 1; })
        .catch(() => undefined);
    }, 40);
    // until the storm's client has met a 429 itself (its first requests may come late on a loaded machine), 20 s at most
    const stormMet = /tracker_sync_rate_limited_total\{project="storm",operation="[^"]+"\} [1-9]/;
    const floodStarted = Date.now();
    const watch = setInterval(() => {
      fetch(`${running.url}/metrics`).then((res) => res.text()).then((text) => {
        if ((stormMet.test(text) && Date.now() - floodStarted >= 4_000) || Date.now() - floodStarted > 20_000) {
          clearInterval(flood);
          clearInterval(watch);
        }
      }).catch(() => undefined);
    }, 500);
    let busy: Record<string, RunJson>;
    try {
      busy = await syncTogether(['acme-busy', 'beta-busy', 'storm-sheet']);
    } finally {
      clearInterval(flood);
      clearInterval(watch);
    }
    expect(storm429).toBeGreaterThan(0);
    for (const run of Object.values(busy)) expect({ id: run.connection_id, status: run.status, error: run.error }).toEqual({ id: run.connection_id, status: 'succeeded', error: null });

    const ms = {
      acmeCalm: durationMs(calm['acme-calm']), betaCalm: durationMs(calm['beta-calm']),
      acmeBusy: durationMs(busy['acme-busy']), betaBusy: durationMs(busy['beta-busy']), storm: durationMs(busy['storm-sheet']),
    };
    process.stderr.write(`projects: run durations (ms) ${JSON.stringify(ms)}\n`);
    // the storm's run: ~15 requests at 1/s, and the 429s on top
    expect(ms.storm).toBeGreaterThan(12_000);
    expect(ms.storm).toBeGreaterThan(3 * Math.max(ms.acmeBusy, ms.betaBusy));
    // the others: as fast as without the storm (room for a loaded machine)
    expect(ms.acmeBusy).toBeLessThan(2 * ms.acmeCalm + 3_000);
    expect(ms.betaBusy).toBeLessThan(2 * ms.betaCalm + 3_000);

    // the storm's client met the 429s; the other projects' did not
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(stormMet);
    expect(metrics).not.toMatch(/tracker_sync_rate_limited_total\{project="(acme|beta)"/);
  }, 240_000);

  it('lands each connection\'s orders in its own project, none in the sandbox\'s own', async () => {
    const totals: Record<string, number> = {};
    for (const [name, number] of [['default', '1'], ...Object.entries(PROJECTS)]) {
      const client = clientOf(number);
      totals[name] = (await client.orders.list({ limit: 1 } as never)).total;
      await client.close();
    }
    expect(totals.default).toBe(0);
    expect(totals.acme).toBeGreaterThan(900);
    expect(totals).toEqual({ default: 0, acme: totals.acme, beta: totals.acme, storm: totals.acme });
  }, 30_000);

  it('names the project in every run line and on the metrics of its connections and budget', async () => {
    const lines = running.output.text().split('\n');
    const ofStormRun = lines.filter((line) => line.includes('[storm-sheet run '));
    expect(ofStormRun.length).toBeGreaterThanOrEqual(5);
    for (const line of ofStormRun) expect(line).toMatch(/\[storm-sheet run \d+ project=storm\] /);
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toContain('tracker_sync_runs_total{project="acme",connection="acme-busy",status="succeeded"} 1');
    expect(metrics).toContain('tracker_sync_records_total{project="storm",connection="storm-sheet",stream="deals",outcome="read"}');
    for (const project of ['acme', 'beta', 'storm']) expect(metrics).toMatch(new RegExp(`tracker_sync_budget_remaining\\{project="${project}",window="hour"\\} \\d+`));
    expect(running.output.text()).not.toContain(KEY);
  });
});
