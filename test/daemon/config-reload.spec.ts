/**
 * A running daemon takes a changed config without a restart: POST /api/config/reload (admin token) and SIGHUP
 * read the file again; connections added, changed and removed take effect (rows, cron jobs), a file that does not
 * load is refused with its problems and the running config stays. The CLI (init) asks a running daemon to reload.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { createCliApp } from '../../src/cli/cli-app';
import { writeDotenv } from '../../src/config/dotenv-file';
import { askDaemonToReload } from '../../src/cli/daemon-reload';
import type { CliOutput } from '../../src/cli/output/cli-output';
import { SchedulerService } from '../../src/scheduler';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { freePort } from '../support/spawn-entry';
import { spawnDaemon } from './daemon-child';
import { api, RunJson, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from './daemon-harness';

const TOKEN = 'config-reload-test-token';
const DEMO = resolve('config/demo');

/** A spreadsheet connection on the bundled demo files. */
function sheet(id: string, schedule?: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    connector: 'spreadsheet',
    ...(schedule ? { schedule } : {}),
    settings: {
      deals: { path: join(DEMO, 'deals.csv'), status_map: { new: '0', in_work: '0', '142': '1', '143': '2' } },
      clients: { path: join(DEMO, 'clients.csv') },
      managers: { path: join(DEMO, 'managers.csv') },
    },
    ...extra,
  };
}

function writeConfig(file: string, dataDir: string, connections: unknown[], more: Record<string, unknown> = {}): void {
  writeFileSync(file, stringify({ data_dir: dataDir, sandbox: { seed: 'demo' }, log: { level: 'info' }, ...more, connections }));
}

interface ConnectionJson {
  id: string;
  schedule: string | null;
  next_run_at: string | null;
}

async function connections(url: string): Promise<ConnectionJson[]> {
  const { status, body } = await api<{ connections: ConnectionJson[] }>(url, TOKEN, '/api/connections');
  expect(status).toBe(200);
  return body.connections;
}

describe('config reload of a running daemon (POST /api/config/reload)', () => {
  const dir = tempDir('reload');
  const file = join(dir.path, 'tracker-sync.yaml');
  const dataDir = join(dir.path, 'data');
  let running: RunningDaemon;

  beforeAll(async () => {
    writeConfig(file, dataDir, [sheet('keep', '*/15 * * * *'), sheet('change-me', '0 * * * *'), sheet('remove-me', '*/5 * * * *')]);
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn' }, file);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  it('answers 401 without the admin token', async () => {
    expect((await api(running.url, null, '/api/config/reload', { method: 'POST' })).status).toBe(401);
  });

  it('takes a connection added, one changed and one removed: rows, schedules and runs follow the new file', async () => {
    const scheduler = running.daemon.app.get(SchedulerService);
    expect(scheduler.hasJob('remove-me')).toBe(true);
    writeConfig(
      file,
      dataDir,
      [sheet('keep', '*/15 * * * *'), sheet('change-me', '30 2 * * *', { statuses: 'map' }), sheet('added', '*/10 * * * *')],
      { sandbox: { seed: 'demo', latency_ms: 1 } },
    );

    const { status, body } = await api(running.url, TOKEN, '/api/config/reload', { method: 'POST' });
    expect({ status, body }).toEqual({
      status: 200,
      body: { file: resolve(file), added: ['added'], changed: ['change-me'], removed: ['remove-me'], moved: [], restart_required: ['sandbox'] },
    });

    const listed = await connections(running.url);
    expect(listed.map((c) => [c.id, c.schedule])).toEqual([['keep', '*/15 * * * *'], ['change-me', '30 2 * * *'], ['added', '*/10 * * * *']]);
    const changed = new Date(listed[1].next_run_at!);
    expect([changed.getMinutes(), changed.getHours()]).toEqual([30, 2]);
    expect(listed[2].next_run_at).not.toBeNull();
    expect([scheduler.hasJob('added'), scheduler.hasJob('remove-me')]).toEqual([true, false]);
    expect((await api(running.url, TOKEN, '/api/connections/remove-me')).status).toBe(404);

    // the daemon runs the added connection
    const started = await api<{ run_id: number }>(running.url, TOKEN, '/api/connections/added/sync', { method: 'POST', body: '{}' });
    expect(started.status).toBe(202);
    const run = await waitForFinishedRun(running.url, TOKEN, 'added', started.body.run_id);
    expect(run.status).toBe('succeeded');
  }, 60_000);

  it('refuses a file that does not load with 400 and its problems by path; the running config stays', async () => {
    writeConfig(file, dataDir, [sheet('keep', 'every minute'), { ...sheet('added'), colour: 'blue' }]);
    const before = await connections(running.url);

    const { status, body } = await api<{ message: string; file: string; problems: string[] }>(running.url, TOKEN, '/api/config/reload', { method: 'POST' });
    expect(status).toBe(400);
    expect(body.file).toBe(resolve(file));
    expect(body.message).toBe(`the configuration ${resolve(file)} was not reloaded (2 problems); the running one stays`);
    expect(body.problems).toEqual([expect.stringMatching(/^connections\[0\]\.schedule: /), expect.stringMatching(/^connections\[1\]\.colour: /)]);
    expect(await connections(running.url)).toEqual(before);
    expect(running.daemon.app.get(SchedulerService).hasJob('change-me')).toBe(true);
  });
});

describe('config reload of the scoped admin tokens (admin.tokens)', () => {
  const dir = tempDir('reload-tokens');
  const file = join(dir.path, 'tracker-sync.yaml');
  const dataDir = join(dir.path, 'data');
  const LEAVING = 'scoped-token-of-a-client-who-leaves';
  const STAYING = 'scoped-token-of-a-client-who-stays';
  const JOINING = 'scoped-token-of-a-client-who-joins';
  const BETA_IN_ENVIRONMENT = 'scoped-token-of-beta-in-the-environment';
  const BETA_ROTATED = 'scoped-token-of-beta-rotated-into-the-file';
  let running: RunningDaemon;

  const tokensConfig = (tokens: { name: string; token: string; role?: string }[]) => ({
    admin: { tokens: tokens.map((t) => ({ ...t, projects: ['default'] })) },
  });
  const status = async (token: string) => (await api(running.url, token, '/api/connections')).status;

  beforeAll(async () => {
    writeConfig(file, dataDir, [sheet('keep', '*/15 * * * *')], tokensConfig([{ name: 'leaving', token: LEAVING }, { name: 'staying', token: STAYING }]));
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn', BETA_TOKEN: BETA_IN_ENVIRONMENT }, file);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  it('takes a token away, adds one and changes a role at once, without a restart; nothing else waits for one', async () => {
    expect([await status(LEAVING), await status(STAYING), await status(JOINING)]).toEqual([200, 200, 401]);
    const syncAs = (token: string) => api(running.url, token, '/api/connections/keep/sync', { method: 'POST', body: '{}' });
    expect((await syncAs(STAYING)).status).toBe(403); // a viewer

    writeConfig(file, dataDir, [sheet('keep', '*/15 * * * *')], tokensConfig([
      { name: 'staying', token: STAYING, role: 'operator' }, { name: 'joining', token: JOINING },
    ]));
    const { status: reloaded, body } = await api(running.url, TOKEN, '/api/config/reload', { method: 'POST' });
    expect({ reloaded, body }).toEqual({ reloaded: 200, body: { file: resolve(file), added: [], changed: [], removed: [], moved: [], restart_required: [] } });

    expect([await status(LEAVING), await status(STAYING), await status(JOINING)]).toEqual([401, 200, 200]);
    const started = await syncAs(STAYING); // now an operator
    expect(started.status).toBe(202);
    await waitForFinishedRun(running.url, TOKEN, 'keep', (started.body as { run_id: number }).run_id);
  }, 60_000);

  it('a token rotated into <data_dir>/.env that the environment sets otherwise: the environment wins, and the log says so once, by name', async () => {
    writeDotenv(dataDir, { BETA_TOKEN: BETA_ROTATED });
    writeConfig(file, dataDir, [sheet('keep', '*/15 * * * *')], tokensConfig([{ name: 'staying', token: STAYING }, { name: 'beta', token: '${BETA_TOKEN}' }]));
    for (let i = 0; i < 2; i++) expect((await api(running.url, TOKEN, '/api/config/reload', { method: 'POST' })).status).toBe(200);
    expect([await status(BETA_IN_ENVIRONMENT), await status(BETA_ROTATED)]).toEqual([200, 401]);
    const said = running.output.text().split('\n').filter((line) => line.includes('BETA_TOKEN'));
    expect(said).toEqual([
      expect.stringMatching(
        /WARN: \[Config\] BETA_TOKEN is set both in the environment and in \S+\/data\/\.env, to different values: the environment's is used and the file's ignored/,
      ),
    ]);
    expect(running.output.text()).not.toMatch(/scoped-token-of-beta/);
  }, 60_000);
});

describe('config reload of the projects (an agency\'s new client, a project\'s number corrected)', () => {
  const dir = tempDir('reload-projects');
  const file = join(dir.path, 'tracker-sync.yaml');
  const dataDir = join(dir.path, 'data');
  const deals = join(dir.path, 'deals.csv');
  const KEY = 'sandbox-key-of-the-agency-reload-4b1';
  let running: RunningDaemon;

  /** A connection of `project` on four deals without visits (a fresh sandbox project lists them). */
  const feeding = (id: string, project: string) => ({ id, connector: 'spreadsheet', project, settings: { deals: { path: deals, timezone: 'UTC' } } });
  const write = (projects: Record<string, unknown>, connections: unknown[]) =>
    writeConfig(file, dataDir, connections, { sandbox: { seed: 'none', api_key: KEY, projects: 4 }, projects });
  /** orders in the sandbox's project `number` */
  async function orders(number: string): Promise<number> {
    const client = new TrackerClient({ baseUrl: `${running.url}/sandbox/api/v1`, apiKey: KEY, project: number, rateLimit: 'off', retries: 3, retryBaseMs: 200 });
    try {
      return (await client.orders.list({ limit: 1 } as never)).total;
    } finally {
      await client.close();
    }
  }
  async function sync(id: string, kind: 'sync' | 'resync' = 'sync'): Promise<RunJson> {
    const started = await api<{ run_id: number }>(running.url, TOKEN, `/api/connections/${id}/${kind}`, { method: 'POST', body: '{}' });
    expect(started.status).toBe(202);
    return waitForFinishedRun(running.url, TOKEN, id, started.body.run_id);
  }

  beforeAll(async () => {
    writeFileSync(deals, ['id,title,status,created_at,updated_at,price,visit_id', ...[1, 2, 3, 4].map((i) => `D${i},Deal ${i},0,2025-03-01 10:00,2025-03-01 11:00,${100 + i},`)].join('\n') + '\n');
    write({ acme: { project: '2' } }, [feeding('acme-sheet', 'acme')]);
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'info' }, file);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  it('takes a project added and one whose number changed, without a restart: the next runs land in the new projects, whole', async () => {
    expect((await sync('acme-sheet')).status).toBe('succeeded');
    expect(await orders('2')).toBe(4);

    // a new client (globex, project 3) with its connection, and acme's number corrected from 2 to 4
    write({ acme: { project: '4' }, globex: { project: '3' } }, [feeding('acme-sheet', 'acme'), feeding('globex-sheet', 'globex')]);
    const { status, body } = await api(running.url, TOKEN, '/api/config/reload', { method: 'POST' });
    expect({ status, body }).toEqual({ status: 200, body: { file: resolve(file), added: ['globex-sheet'], changed: [], removed: [], moved: [], restart_required: [] } });
    expect(running.output.text()).toContain('projects: globex added, acme changed');

    const globex = await sync('globex-sheet');
    expect({ status: globex.status, error: globex.error }).toEqual({ status: 'succeeded', error: null });
    expect(await orders('3')).toBe(4);
    // an incremental run: the deals acknowledged by project 2 say nothing of project 4, so each is sent there
    const moved = await sync('acme-sheet');
    expect({ status: moved.status, sent: moved.streams.deals.sent }).toEqual({ status: 'succeeded', sent: 4 });
    expect([await orders('2'), await orders('4')]).toEqual([4, 4]);
    expect(running.output.text()).toMatch(/records now go to the embedded sandbox \(.*\) project 4, not the embedded sandbox \(.*\) project 2: what was sent there is forgotten/);
    expect((await sync('acme-sheet')).streams.deals).toMatchObject({ read: 0, sent: 0 }); // and from then on, as before
    const listed = await api<{ projects: { name: string; number: string | null; connections: string[] }[] }>(running.url, TOKEN, '/api/projects');
    expect(listed.body.projects.map((p) => [p.name, p.number, p.connections])).toEqual([['default', null, []], ['acme', '4', ['acme-sheet']], ['globex', '3', ['globex-sheet']]]);

    // globex's sheet handed to acme: the answer and the log say it moved, and from where
    write({ acme: { project: '4' }, globex: { project: '3' } }, [feeding('acme-sheet', 'acme'), feeding('globex-sheet', 'acme')]);
    const handed = await api(running.url, TOKEN, '/api/config/reload', { method: 'POST' });
    expect(handed.body).toMatchObject({ changed: ['globex-sheet'], moved: [{ connection: 'globex-sheet', from: 'globex', to: 'acme' }] });
    expect(running.output.text()).toContain("connections changed globex-sheet; globex-sheet moved from project globex to project acme (its runs, rejections and alerts so far stay globex's)");
  }, 90_000);
});

describe('config reload during a run', () => {
  const dir = tempDir('reload-run');
  const file = join(dir.path, 'tracker-sync.yaml');
  const dataDir = join(dir.path, 'data');
  const fewDeals = join(dir.path, 'few-deals.csv');
  let running: RunningDaemon;

  /** The demo's 1000 deals in batches of 25 at 20 ms an answer: the run is still sending when the file changes. */
  function slow(dealsPath: string) {
    const connection = sheet('slow', undefined, { sync: { batch_size: 25 } });
    connection.settings.deals.path = dealsPath;
    return connection;
  }

  beforeAll(async () => {
    // the header and the first ten deals of the demo
    writeFileSync(fewDeals, readFileSync(join(DEMO, 'deals.csv')).subarray(0, nthLineEnd(readFileSync(join(DEMO, 'deals.csv')), 11)));
    writeConfig(file, dataDir, [slow(join(DEMO, 'deals.csv'))], { sandbox: { seed: 'demo', latency_ms: 20 } });
    running = await startDaemon({ ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn' }, file);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  it('a run in flight finishes under the settings it started with; the next run takes the new ones', async () => {
    const started = await api<{ run_id: number }>(running.url, TOKEN, '/api/connections/slow/sync', { method: 'POST', body: '{}' });
    expect(started.status).toBe(202);
    await until(async () => ((await api<RunJson>(running.url, TOKEN, `/api/runs/${started.body.run_id}`)).body.streams?.deals?.sent ?? 0) >= 10);

    writeConfig(file, dataDir, [slow(fewDeals)], { sandbox: { seed: 'demo', latency_ms: 20 } });
    const reload = await api(running.url, TOKEN, '/api/config/reload', { method: 'POST' });
    expect(reload.body).toMatchObject({ changed: ['slow'] });

    const first = await waitForFinishedRun(running.url, TOKEN, 'slow', started.body.run_id);
    expect({ status: first.status, read: first.streams.deals.read }).toEqual({ status: 'succeeded', read: 1000 });
    const next = await api<{ run_id: number }>(running.url, TOKEN, '/api/connections/slow/resync', { method: 'POST', body: '{}' });
    const second = await waitForFinishedRun(running.url, TOKEN, 'slow', next.body.run_id);
    expect({ status: second.status, read: second.streams.deals.read }).toEqual({ status: 'succeeded', read: 10 });
  }, 90_000);
});

/** The offset after the n-th line break. */
function nthLineEnd(bytes: Buffer, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = bytes.indexOf(10, at + 1);
  return at + 1;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('config reload of a daemon process: SIGHUP, and the CLI asking it', () => {
  const dir = tempDir('reload-hup');
  const file = join(dir.path, 'tracker-sync.yaml');
  const dataDir = join(dir.path, 'data');
  let port: number;
  let child: ReturnType<typeof spawnDaemon>;
  let url: string;

  beforeAll(async () => {
    port = await freePort();
    writeConfig(file, dataDir, [sheet('first')], { server: { port } });
    child = spawnDaemon(['--config', file], { ADMIN_TOKEN: TOKEN, PORT: String(port), LOG_FORMAT: 'json' });
    url = (await child.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
  }, 90_000);

  afterAll(async () => {
    await child?.stop();
    dir.remove();
  });

  async function cliAsks(env: NodeJS.ProcessEnv, written = file): Promise<{ stdout: string[]; stderr: string[] }> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const out: CliOutput = { line: (t) => stdout.push(t), error: (t) => stderr.push(t), isTTY: false };
    const cli = await createCliApp(['node', 'cli.js', '--config', written], { PATH: process.env.PATH, LOG_LEVEL: 'error', ...env });
    try {
      await askDaemonToReload(cli.context, written, env, out);
    } finally {
      await cli.close();
    }
    return { stdout, stderr };
  }

  it('SIGHUP reads the file again: a connection added; the process keeps running', async () => {
    writeConfig(file, dataDir, [sheet('first'), sheet('second', '*/10 * * * *')], { server: { port } });
    child.proc.kill('SIGHUP');
    await child.waitFor(/reloaded: connections added second/, 20_000);
    expect((await connections(url)).map((c) => c.id)).toEqual(['first', 'second']);
    expect(child.proc.exitCode).toBeNull();
  }, 30_000);

  it('SIGHUP with a file that does not load: the problems logged, the old config kept, the process alive', async () => {
    writeConfig(file, dataDir, [sheet('first', 'every minute')], { server: { port } });
    child.proc.kill('SIGHUP');
    await child.waitFor(/was not reloaded \(1 problem\); the running one stays[\s\S]*connections\[0\]\.schedule/, 20_000);
    expect((await connections(url)).map((c) => c.id)).toEqual(['first', 'second']);
    expect(child.proc.exitCode).toBeNull();
  }, 30_000);

  it('the CLI asks the daemon through its admin API (the address and token of the config)', async () => {
    // as init writes it for the real service: the tracker section waits for a restart, and the CLI says so
    writeConfig(file, dataDir, [sheet('first'), sheet('second', '*/10 * * * *'), sheet('third')], { server: { port }, tracker: { timeout_ms: 20000 } });
    const said = await cliAsks({ ADMIN_TOKEN: TOKEN, PORT: String(port) });
    expect(said).toEqual({
      stdout: [
        `the running daemon at http://127.0.0.1:${port} reloaded the config (connections added: third; changed: none; removed: none)`,
        'tracker changed too: restart the daemon for it to take effect',
      ],
      stderr: [],
    });
    expect((await connections(url)).map((c) => c.id)).toEqual(['first', 'second', 'third']);
  }, 60_000);

  it('the CLI sends SIGHUP to the daemon of the same store when its admin API cannot be reached', async () => {
    writeConfig(file, dataDir, [sheet('first'), sheet('third')], { server: { port } });
    const pid = child.proc.pid;
    // a port nobody listens on: the admin API is not reached, the store's daemon row (pid, this host) is
    const said = await cliAsks({ ADMIN_TOKEN: TOKEN, PORT: String(await freePort()) });
    expect(said.stdout).toEqual([
      `sent SIGHUP to the running daemon of this store (pid ${pid}): it reads its own config file again, which may not be ${file}; ` +
        `if it runs another file, restart it with --config ${file}`,
    ]);
    await child.waitFor(/reloaded: connections removed second/, 20_000);
    expect((await connections(url)).map((c) => c.id)).toEqual(['first', 'third']);
  }, 60_000);

  it('the CLI wrote another file of the same store: SIGHUP makes the daemon read its own, and the CLI does not claim otherwise', async () => {
    const other = join(dir.path, 'other.yaml');
    writeConfig(other, dataDir, [sheet('first'), sheet('fourth')], { server: { port: await freePort() } });
    const said = await cliAsks({ ADMIN_TOKEN: TOKEN }, other);
    expect(said.stdout).toHaveLength(1);
    expect(said.stdout[0]).not.toContain(`it reads ${other} again`);
    expect(said.stdout[0]).toContain(`it reads its own config file again, which may not be ${other}; if it runs another file, restart it with --config ${other}`);
    // it read tracker-sync.yaml again (unchanged since), not other.yaml: no connection "fourth"
    await child.waitFor(/reloaded: no connection changed/, 20_000);
    expect((await connections(url)).map((c) => c.id)).toEqual(['first', 'third']);
  }, 60_000);

  it('the CLI says plainly when no daemon can be reached', async () => {
    const other = tempDir('reload-none');
    try {
      const lone = join(other.path, 'tracker-sync.yaml');
      writeConfig(lone, join(other.path, 'data'), [sheet('first')], { server: { port: await freePort() } });
      const stdout: string[] = [];
      const out: CliOutput = { line: (t) => stdout.push(t), error: (t) => stdout.push(t), isTTY: false };
      const cli = await createCliApp(['node', 'cli.js', '--config', lone], { PATH: process.env.PATH, LOG_LEVEL: 'error' });
      try {
        await askDaemonToReload(cli.context, lone, { ADMIN_TOKEN: TOKEN }, out);
      } finally {
        await cli.close();
      }
      expect(stdout).toEqual(['no running daemon was reached: restart the daemon or send it SIGHUP to take the new config']);
    } finally {
      other.remove();
    }
  }, 60_000);
});
