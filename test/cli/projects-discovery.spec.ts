import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { validateConfig } from '../../src/config';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm } from '../fixtures/crm/setup';
import { runCli as runCliMain } from '../../src/cli/run-cli';
import type { CliOutput } from '../../src/cli/output/cli-output';
import { removeDir, runCliInProcess, tempDir } from './cli-harness';

async function cliWith(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const output: CliOutput = { line: (t) => out.push(`${t}\n`), error: (t) => err.push(`${t}\n`), isTTY: false };
  const code = await runCliMain(['node', 'cli.js', ...args], { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, output);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const DEALS = 'id,title,status,created_at,price\nD-1,First,new,2026-11-01T10:00:00+03:00,100\n';

/**
 * `discover`, `check` and `init` list the projects the key sees (GET /user/projects), each with its name in the
 * config; `check` fails naming `projects.<name>` for a project the key does not see; `init --project-name --project`
 * adds a block once. On the embedded sandbox with three projects, and a standalone sandbox as "the service".
 */
describe('cli: the projects of the key', () => {
  let dir: string;
  let service: SandboxHarness;

  beforeAll(async () => {
    dir = tempDir();
    writeFileSync(join(dir, 'deals.csv'), DEALS);
    service = await SandboxHarness.start({ projects: 3, seed: 'none', apiKey: 'agency-key' });
  });

  afterAll(async () => {
    await service?.close();
    removeDir(dir);
  });

  function config(name: string, extra: Record<string, unknown>): string {
    const file = join(dir, name);
    const sheet = (id: string, project?: string) => ({ id, connector: 'spreadsheet', ...(project ? { project } : {}), settings: { deals: { path: join(dir, 'deals.csv') } } });
    writeFileSync(file, `# the agency's config\n${stringify({
      data_dir: join(dir, `data-${name}`),
      log: { level: 'warn' },
      sandbox: { seed: 'none', budget: 'off', projects: 3 },
      connections: [sheet('house'), sheet('acme-sheet', 'acme')],
      ...extra,
    })}`);
    return file;
  }

  it('discover lists the sandbox key\'s three projects, marking which are configured and as what', async () => {
    const file = config('discover.yaml', { projects: { acme: { project: '2' } } });
    const answer = await runCliInProcess(['discover', '--config', file]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('projects the Api-keys see on the embedded sandbox:\n');
    expect(answer.stdout).toContain('  1  Demo project (RUB): configured as default (the tracker: section)\n');
    expect(answer.stdout).toContain('  2  Project 2 (RUB): configured as acme\n');
    expect(answer.stdout).toContain('  3  Project 3 (RUB): not configured\n');

    const json = await runCliInProcess(['discover', '--config', file, '--json']);
    const result = JSON.parse(json.stdout);
    expect(result.ok).toBe(true);
    expect(result.projects.map((p: { project: string; configured_as: string | null }) => [p.project, p.configured_as]))
      .toEqual([['1', 'default'], ['2', 'acme'], ['3', null]]);
  }, 60_000);

  it('check checks each project, then the connections of each; one the key cannot see fails naming projects.<name>', async () => {
    const file = config('check.yaml', {
      projects: {
        acme: { project: '2' },
        far: { project: '3', base_url: service.baseUrl, api_key: 'agency-key', rate_limit: 'off' },
        ghost: { project: '7', base_url: service.baseUrl, api_key: 'agency-key', rate_limit: 'off' },
      },
    });
    const answer = await runCliInProcess(['check', '--config', file]);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain('project default: ok: the Api-key sees project 1 ("Demo project") on the embedded sandbox\n');
    expect(answer.stdout).toContain('project acme: ok: the Api-key sees project 2 ("Project 2") on the embedded sandbox\n');
    expect(answer.stdout).toContain(`project far: ok: the Api-key sees project 3 ("Project 3") on ${service.baseUrl}\n`);
    expect(answer.stderr).toContain(`project ghost: check failed: projects.ghost: project 7 is not among the projects its Api-key sees on ${service.baseUrl} (1, 2, 3)\n`);
    expect(answer.stdout).toContain('not configured: project 3 on the embedded sandbox, which the Api-key sees (npm run cli -- discover names them)\n');
    // the connections, project by project
    expect(answer.stdout).toMatch(/connection house \(project default\): source: ok: [^\n]*\n[\s\S]*connection acme-sheet \(project acme\): source: ok: /);
    expect(answer.stdout + answer.stderr).not.toContain('agency-key');

    const fine = config('check-fine.yaml', { projects: { acme: { project: '3' } } });
    const ok = await runCliInProcess(['check', '--config', fine]);
    expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' });
  }, 60_000);

  it('init --project-name --project adds a projects: block that loads, once, keeping the comments', async () => {
    const file = join(dir, 'init.yaml');
    const start = `# the agency's config\ndata_dir: ${join(dir, 'data-init')} # the store\nsandbox:\n  seed: none\n  budget: "off"\n  projects: 3\nlog:\n  level: warn\n`;
    writeFileSync(file, start);
    const first = await runCliInProcess(['init', '--config', file, '--project-name', 'acme', '--project', '2']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('  2  Project 2 (RUB): configured as acme\n');
    expect(first.stdout).toContain(`wrote projects.acme (project 2) into ${file}\n`);
    const written = readFileSync(file, 'utf8');
    expect(written).toBe(`${start}\nprojects:\n  acme:\n    project: "2"\n`);
    const loaded = validateConfig(parse(written), { env: {} });
    expect(loaded.projects).toEqual({ acme: expect.objectContaining({ project: '2' }) });

    const again = await runCliInProcess(['init', '--config', file, '--project-name', 'acme', '--project', '2']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${file} has projects.acme (project 2) already: nothing to write\n`);
    expect(readFileSync(file, 'utf8')).toBe(written);

    // a second project goes after the first; a name taken by another number, and a number the sandbox lacks, write nothing
    expect((await runCliInProcess(['init', '--config', file, '--project-name', 'beta', '--project', '3'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${written}  beta:\n    project: "3"\n`);
    const taken = await runCliInProcess(['init', '--config', file, '--project-name', 'acme', '--project', '3']);
    expect({ code: taken.code, stderr: taken.stderr }).toEqual({ code: 1, stderr: `init: ${file} has projects.acme for project 2: choose another --project-name\n` });
    const unhosted = await runCliInProcess(['init', '--config', file, '--project-name', 'gamma', '--project', '9']);
    expect(unhosted.code).toBe(1);
    expect(unhosted.stderr).toContain('projects.gamma.project: "9" is not a project of the embedded sandbox, which hosts projects 1..3');
    // "03" would be project 3 (beta's) under a second name: refused, with the one way to write it
    const spelled = await runCliInProcess(['init', '--config', file, '--project-name', 'gamma', '--project', '03']);
    expect({ code: spelled.code, stderr: spelled.stderr })
      .toEqual({ code: 1, stderr: 'init: --project "03" must be written "3" (a project number: digits only, no leading zero, sign, space or decimals)\n' });
    expect(readFileSync(file, 'utf8')).toBe(`${written}  beta:\n    project: "3"\n`);
  }, 90_000);

  it("init --project-name --project on the shipped config: its `projects: {}` takes the block, the comments kept", async () => {
    const file = join(dir, 'shipped.yaml');
    // the shipped file as it is, but for a sandbox hosting project 2 and no demo to seed
    const shipped = readFileSync('config/tracker-sync.yaml', 'utf8').replace(/^(  seed: )demo/m, '$1none').replace(/^(  projects: )1/m, '$13');
    writeFileSync(file, shipped);
    const answer = await cliWith(['init', '--config', file, '--project-name', 'acme', '--project', '2'], { DATA_DIR: join(dir, 'data-shipped') });
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain(`wrote projects.acme (project 2) into ${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(shipped.replace(/^projects: \{\}\n/m, 'projects:\n  acme:\n    project: "2"\n'));
  }, 90_000);

  it('init --project-name on the service writes base_url and the key as ${VARIABLE}, only for a project the key sees', async () => {
    const file = join(dir, 'init-service.yaml');
    const start = `data_dir: ${join(dir, 'data-init-service')}\nlog:\n  level: warn\n`;
    writeFileSync(file, start);
    const flags = ['--tracker-url', service.baseUrl, '--tracker-key-env', 'AGENCY_KEY'];
    const env = { AGENCY_KEY: 'agency-key' };
    const unseen = await cliWith(['init', '--config', file, '--project-name', 'ghost', '--project', '7', ...flags], env);
    expect(unseen.code).toBe(1);
    expect(unseen.stderr).toBe(`init: projects.ghost: project 7 is not among the projects its Api-key sees on ${service.baseUrl} (1, 2, 3); nothing was written\n`);
    expect(readFileSync(file, 'utf8')).toBe(start);

    const seen = await cliWith(['init', '--config', file, '--project-name', 'acme', '--project', '2', ...flags], env);
    expect(seen.stderr).toBe('');
    expect(seen.code).toBe(0);
    expect(parse(readFileSync(file, 'utf8')).projects).toEqual({ acme: { project: '2', base_url: service.baseUrl, api_key: '${AGENCY_KEY}' } });
    expect(readFileSync(file, 'utf8')).not.toContain('agency-key');
    expect(readFileSync(join(dir, 'data-init-service', '.env'), 'utf8')).toContain("AGENCY_KEY='agency-key'");
  }, 90_000);

  it('init with a connection and --project-name: the block, and project: <name> on the connection', async () => {
    const crm = await startCrmServer(amocrm.handler);
    try {
      const file = join(dir, 'init-connection.yaml');
      writeFileSync(file, `data_dir: ${join(dir, 'data-init-connection')}\nsandbox:\n  seed: none\n  budget: "off"\n  projects: 2\nlog:\n  level: warn\n`);
      const token = (amocrm.settings('http://x') as { token: string }).token;
      const answer = await cliWith([
        'init', '--config', file, '--preset', 'amocrm', '--base-url', crm.url, '--token-env', 'AMO_TOKEN', '--connection', 'acme-amo',
        '--project-name', 'acme', '--project', '2', '--accept-proposed',
      ], { AMO_TOKEN: token });
      expect(answer.stderr).toBe('');
      expect(answer.code).toBe(0);
      expect(answer.stdout).toContain('  2  Project 2 (RUB): configured as acme\n');
      expect(answer.stdout).toContain(`wrote connection acme-amo (project acme) into ${file}`);
      const written = parse(readFileSync(file, 'utf8'));
      expect(written.projects).toEqual({ acme: { project: '2' } });
      expect(written.connections[0]).toMatchObject({ id: 'acme-amo', connector: 'generic-crm', project: 'acme' });
      expect(() => validateConfig(written, { env: { AMO_TOKEN: token } })).not.toThrow();
    } finally {
      await crm.close();
    }
  }, 90_000);
});
