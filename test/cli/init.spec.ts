import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import genericCrm from '../../connectors/generic-crm';
import { runCli as runCliMain } from '../../src/cli/run-cli';
import type { CliOutput } from '../../src/cli/output/cli-output';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { allOrders } from '../e2e/sandbox-readback';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm } from '../fixtures/crm/setup';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { removeDir, tempDir } from './cli-harness';

const AMO_TOKEN = (amocrm.settings('http://x') as { token: string }).token;
const SERVICE_KEY_ENV = 'SERVICE_KEY';
const STARTING_CONFIG = [
  '# tracker-sync config of the shop (kept by init)',
  'data_dir: DATA # where the store lives',
  '',
  'log:',
  '  level: warn # quiet CLI',
  '',
].join('\n');

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const output: CliOutput = { line: (t) => out.push(t), error: (t) => err.push(t), isTTY: false };
  const code = await runCliMain(['node', 'cli.js', ...args], { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, output);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** `init` without a terminal: flags only, from a config with no connection to a first successful sync. */
describe('cli init (flags, no terminal)', () => {
  let crm: CrmServer;
  let sandbox: SandboxHarness;
  let dir: string;
  let config: string;
  let flags: string[];

  beforeAll(async () => {
    crm = await startCrmServer(amocrm.handler);
    sandbox = await SandboxHarness.start();
    await sandbox.post('_sandbox/visits', amocrm.deals.map((d) => ({ id: d.visit, date: '2026-11-01T00:00:00+0000' })));
    dir = tempDir();
    config = join(dir, 'tracker-sync.yaml');
    writeFileSync(config, STARTING_CONFIG.replace('DATA', join(dir, 'data')));
    flags = [
      'init', '--config', config, '--preset', 'amocrm', '--base-url', crm.url, '--token-env', 'AMO_TOKEN', '--connection', 'amo',
      '--schedule', '*/15 * * * *', '--tracker-url', sandbox.baseUrl, '--tracker-key-env', SERVICE_KEY_ENV, '--project', String(sandbox.projectId),
      '--accept-proposed', '--sync',
    ];
  });

  afterAll(async () => {
    await sandbox?.app.close();
    await crm?.close();
    removeDir(dir);
  });

  it.each([
    ['--preset <name>', '--preset'],
    ['--base-url <url>', '--base-url'],
    ['--token-env <VARIABLE>', '--token-env'],
    ['--connection <id>', '--connection'],
    ['--accept-proposed', '--accept-proposed'],
  ])('fails naming %s when it is missing, and writes nothing', async (named, flag) => {
    const without = flags.filter((f, i) => f !== flag && flags[i - 1] !== flag);
    const answer = await cli(without, { AMO_TOKEN, [SERVICE_KEY_ENV]: sandbox.apiKey });
    expect(answer.code).toBe(1);
    expect(answer.stderr).toContain(`init: ${named}`);
    expect(readFileSync(config, 'utf8')).toBe(STARTING_CONFIG.replace('DATA', join(dir, 'data')));
    expect(existsSync(join(dir, 'data', '.env'))).toBe(false);
  });

  it("refuses a preset the generic CRM does not ship, naming its presets (from the connector's definition)", async () => {
    const presets = genericCrm.presets ?? [];
    expect(presets).toEqual(expect.arrayContaining(['amocrm', 'bitrix24', 'pipedrive', 'hubspot']));
    const answer = await cli(flags.map((f) => (f === 'amocrm' ? 'nope' : f)), { AMO_TOKEN, [SERVICE_KEY_ENV]: sandbox.apiKey });
    expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 1, stderr: `init: --preset "nope" is not a preset (${presets.join(', ')})` });
  });

  it('fails naming the variable when the token is not in the environment', async () => {
    const answer = await cli(flags, { [SERVICE_KEY_ENV]: sandbox.apiKey });
    expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 1, stderr: 'init: the CRM token: set AMO_TOKEN in the environment (or pass --token)' });
  });

  it('discovers, writes the connection with the proposed mapping (comments kept, secrets in .env 0600), checks and syncs', async () => {
    const answer = await cli(flags, { AMO_TOKEN, [SERVICE_KEY_ENV]: sandbox.apiKey });
    // stderr holds the first sync's progress (a line per stream) and nothing else
    const problems = answer.stderr.split('\n').filter((line) => line && !/^\S+ run \d+ \w+: read \d+/.test(line));
    expect({ code: answer.code, problems }).toEqual({ code: 0, problems: [] });
    expect(answer.stdout).toContain('  Продажи [7001]');
    expect(answer.stdout).toContain('connection amo: service: ok: ');
    expect(answer.stdout).toContain('connection amo: source: ok: ');
    expect(answer.stdout).toMatch(/^deals: read 5 · sent 5 · unchanged 0 · rejected 0/m);
    // no daemon runs this config: init says what to do for one to take the connection
    expect(answer.stdout).toContain('\nno running daemon was reached: restart the daemon or send it SIGHUP to take the new config\n');

    const text = readFileSync(config, 'utf8');
    expect(text.startsWith('# tracker-sync config of the shop (kept by init)\ndata_dir: ')).toBe(true);
    expect(text).toContain('data_dir: ' + join(dir, 'data') + ' # where the store lives');
    expect(text).toContain('  level: warn # quiet CLI');
    expect(text).not.toContain(AMO_TOKEN);
    expect(text).not.toContain(sandbox.apiKey);
    expect(text).toContain('"142": "1" # Продажи: Успешно реализовано (won); Опт: Успешно реализовано (won) → paid');
    const written = parse(text) as { tracker: object; connections: { settings: Record<string, unknown> }[] };
    expect(written.tracker).toEqual({ base_url: sandbox.baseUrl, api_key: `\${${SERVICE_KEY_ENV}}`, project: String(sandbox.projectId) });
    expect(written.connections).toEqual([{
      id: 'amo', connector: 'generic-crm', schedule: '*/15 * * * *',
      settings: {
        preset: 'amocrm', base_url: crm.url, token: '${AMO_TOKEN}',
        status_map: { '61001': '0', '61002': '0', '142': '1', '143': '2', '62001': '0' },
        visit_field: '580001',
      },
    }]);
    const dotenv = join(dir, 'data', '.env');
    expect(statSync(dotenv).mode & 0o777).toBe(0o600);
    expect(readFileSync(dotenv, 'utf8')).toContain(`AMO_TOKEN='${AMO_TOKEN}'`);

    const tracker = new TrackerClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, project: String(sandbox.projectId), rateLimit: 'off', retries: 1 });
    try {
      const orders = (await allOrders(tracker)).map((o) => ({ id: o.id, status: o.status.type, visit: o.visit ? String(o.visit.id) : null }));
      expect(orders.sort((a, b) => a.id.localeCompare(b.id))).toEqual(amocrm.deals.map((d) => ({ id: d.id, status: d.group, visit: d.visit })));
    } finally {
      await tracker.close();
    }
  });

  it('the written config loads with the secrets from .env alone: check passes without a warning', async () => {
    const answer = await cli(['check', 'amo', '--config', config]);
    expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('check warns about a stage status_map leaves out and a visit_field the CRM lacks', async () => {
    const text = readFileSync(config, 'utf8').replace(/\n\s*"62001": "0".*/, '').replace('visit_field: "580001"', 'visit_field: "Визит"');
    const edited = join(dir, 'edited.yaml');
    writeFileSync(edited, text);
    const answer = await cli(['check', 'amo', '--config', edited]);
    expect(answer.code).toBe(0);
    expect(answer.stderr.split('\n')).toEqual([
      'connection amo: warning: status_map covers no entry for 1 stage: "62001" (Опт: Заявка, 1 deals in the last run); their deals are sent with the stage id as status (see `cli discover`)',
      'connection amo: warning: visit_field "Визит" is not a deal field of the CRM: every deal is sent without a visit number (see `cli discover` for the fields)',
    ]);
  });

  it('refuses a connection id the config already has', async () => {
    const before = readFileSync(config, 'utf8');
    const answer = await cli(flags, { AMO_TOKEN, [SERVICE_KEY_ENV]: sandbox.apiKey });
    expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 1, stderr: `init: ${config} already has a connection "amo"` });
    expect(readFileSync(config, 'utf8')).toBe(before);
  });
});
