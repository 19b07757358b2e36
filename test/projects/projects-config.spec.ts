/** `projects:` in the config: each block a target of its own, names checked, one number per service. */
import { loadConfig, projectTargets, validateConfig } from '../../src/config';
import { configErrorOf, ConfigFiles } from '../config/config-files';
import { configProblems } from '../support/config-problems';

const problems = configProblems;

const TRACKER = { base_url: 'https://api.example.test/v1', api_key: 'agency-key', project: '100' };

describe('projects in the config', () => {
  it('keeps tracker: alone working as the default project', () => {
    const config = validateConfig({ tracker: TRACKER, connections: [{ id: 'a', connector: 'spreadsheet' }] }, { env: {} });
    expect(projectTargets(config).map((t) => [t.name, t.project])).toEqual([['default', '100']]);
  });

  it('fills a project block from tracker: (key, URL, budget) and lets it override each', () => {
    const config = validateConfig({
      tracker: TRACKER,
      projects: {
        acme: { project: '12345' },
        beta: { project: 777, api_key: 'beta-key', base_url: 'https://other.example.test/v1', rate_limit: { per_second: 2, per_hour: 100 } },
        off: { project: '5', rate_limit: 'off' },
      },
      connections: [{ id: 'acme-amo', connector: 'spreadsheet', project: 'acme' }, { id: 'b', connector: 'spreadsheet', project: 'beta' }],
    }, { env: {} });
    const [, acme, beta, off] = projectTargets(config);
    expect(acme).toMatchObject({ name: 'acme', project: '12345', apiKey: 'agency-key', baseUrl: TRACKER.base_url });
    expect(acme.rateLimit).toMatchObject({ per_second: 8, per_hour: 4000 });
    expect(beta).toMatchObject({ name: 'beta', project: '777', apiKey: 'beta-key', baseUrl: 'https://other.example.test/v1' });
    expect(beta.rateLimit).toMatchObject({ per_second: 2, per_hour: 100 });
    expect(off.rateLimit).toBe('off');
    expect(config.connections[0].project).toBe('acme');
  });

  it('names the key of a connection that feeds an unknown project', () => {
    expect(problems({ tracker: TRACKER, projects: { acme: { project: '1' } }, connections: [{ id: 'x', connector: 'spreadsheet', project: 'acne' }] }))
      .toContainEqual('connections[0].project: "acne" is not a project under projects: (one of "acme")');
  });

  it('refuses two projects with one number on one base URL, naming the key', () => {
    expect(problems({ tracker: TRACKER, projects: { acme: { project: '1' }, twin: { project: '1' } } }))
      .toContainEqual(`projects.twin.project: "1" on ${TRACKER.base_url} is already projects.acme`);
    expect(problems({ tracker: TRACKER, projects: { again: { project: '100' } } }))
      .toContainEqual(`projects.again.project: "100" on ${TRACKER.base_url} is already tracker.project`);
    // the same number on another service is another project
    expect(problems({ tracker: TRACKER, projects: { acme: { project: '1' }, elsewhere: { project: '1', base_url: 'https://b.example.test' } } })).toEqual([]);
  });

  it('checks each block: its number, unknown keys, its name', () => {
    const found = problems({ tracker: TRACKER, projects: { acme: { project: 'abc' }, beta: { project: '2', apikey: 'x' }, 'bad name': { project: '3' }, default: { project: '4' } } });
    expect(found).toEqual(expect.arrayContaining([
      'projects.acme.project: "abc" must be a project number (digits only)',
      expect.stringMatching(/^projects\.beta\.apikey: unknown key/),
      'projects.bad name: a project\'s name has only letters, digits, "-" and "_"',
      expect.stringMatching(/^projects\.default: "default" is the name of the tracker: section's project/),
    ]));
    expect(problems({ tracker: TRACKER, projects: { acme: {} } })).toContainEqual('projects.acme.project: is required');
  });

  it('needs no tracker.project when every connection names its project', () => {
    const tracker = { base_url: TRACKER.base_url, api_key: 'k' };
    expect(problems({ tracker, projects: { acme: { project: '1' } }, connections: [{ id: 'a', connector: 'spreadsheet', project: 'acme' }] })).toEqual([]);
    expect(problems({ tracker, projects: { acme: { project: '1' } }, connections: [{ id: 'a', connector: 'spreadsheet' }] }))
      .toContainEqual(expect.stringMatching(/^tracker\.project: is required/));
  });
});

describe('project numbers: one spelling for each', () => {
  const files = new ConfigFiles();
  afterAll(() => files.remove());
  const meant = (written: string, number: string) => `"${written}" must be written "${number}" (a project number: digits only, no leading zero, sign, space or decimals)`;

  it('refuses a number written another way, naming the key and the number it spells', () => {
    for (const [written, number] of [['02', '2'], [' 2', '2'], ['2.0', '2'], ['+2', '2'], ['0012', '12']]) {
      expect(problems({ tracker: TRACKER, projects: { beta: { project: written } } })).toContainEqual(`projects.beta.project: ${meant(written, number)}`);
    }
    expect(problems({ tracker: { ...TRACKER, project: '007' } })).toContainEqual(`tracker.project: ${meant('007', '7')}`);
    expect(problems({ tracker: { ...TRACKER, project: '0' } })).toContainEqual('tracker.project: "0" must be a project number (1 or more)');
    expect(problems({ tracker: TRACKER, projects: { acme: { project: '2' } } })).toEqual([]);
  });

  it('refuses two names for one number however either is written: "02" is already the "2" of projects.acme', () => {
    expect(problems({ tracker: TRACKER, projects: { acme: { project: '2' }, beta: { project: '02' } } }))
      .toContainEqual(`projects.beta.project: "02" on ${TRACKER.base_url} is already projects.acme`);
    expect(problems({ tracker: TRACKER, projects: { again: { project: '+100' } } }))
      .toContainEqual(`projects.again.project: "+100" on ${TRACKER.base_url} is already tracker.project`);
  });

  it('holds TRACKER_PROJECT and ${VARIABLE} in the file to it; a YAML number is the number it reads as', () => {
    const file = files.write(`tracker: { base_url: "${TRACKER.base_url}", api_key: k }\nprojects:\n  beta: { project: "\${BETA_PROJECT}" }\n  gamma: { project: 03 }\n`);
    const problemsOf = (env: NodeJS.ProcessEnv) => configErrorOf(() => loadConfig({ file, env, argv: [] })).problems;
    expect(problemsOf({ TRACKER_PROJECT: '02', BETA_PROJECT: '2' })).toEqual([
      `tracker.project: ${meant('02', '2')} (from TRACKER_PROJECT)`,
      `projects.beta.project: "2" on ${TRACKER.base_url} is already tracker.project`,
    ]);
    expect(problemsOf({ TRACKER_PROJECT: '1', BETA_PROJECT: '02' })).toEqual([`projects.beta.project: ${meant('02', '2')}`]);
    // unquoted, 03 is the YAML integer 3: taken as "3", the only way it is read
    expect(projectTargets(loadConfig({ file, env: { TRACKER_PROJECT: '1', BETA_PROJECT: '2' }, argv: [] })).map((t) => t.project)).toEqual(['1', '2', '3']);
  });
});

describe('cluster in the config', () => {
  it('needs a PostgreSQL store beside Redis', () => {
    expect(problems({ cluster: { redis: 'redis://127.0.0.1:6379/0' } }))
      .toContainEqual('cluster.redis: requires store.url (a PostgreSQL store shared by the daemons; env DATABASE_URL)');
    expect(problems({ cluster: { redis: 'redis://127.0.0.1:6379/0' }, store: { url: 'postgres://u@h/db' } })).toEqual([]);
    expect(problems({ cluster: { redis: 'http://x' } })).toContainEqual(expect.stringMatching(/^cluster\.redis: /));
    expect(validateConfig({}, { env: {} }).cluster.stalled_after).toBe('30s');
  });
});

describe('projects on the embedded sandbox', () => {
  it('defaults to one project and takes a whole number >= 1', () => {
    expect(validateConfig({}, { env: {} }).sandbox.projects).toBe(1);
    expect(validateConfig({ sandbox: { projects: '100' } }, { env: {} }).sandbox.projects).toBe(100);
    expect(problems({ sandbox: { projects: 0 } })).toContainEqual(expect.stringMatching(/^sandbox\.projects: /));
    expect(problems({ sandbox: { projects: 1.5 } })).toContainEqual(expect.stringMatching(/^sandbox\.projects: /));
  });

  it('accepts a block for each project the sandbox hosts, and names the key of one it does not', () => {
    const projects = { acme: { project: '2' }, beta: { project: '3' } };
    expect(problems({ sandbox: { projects: 3 }, projects })).toEqual([]);
    expect(problems({ sandbox: { projects: 2 }, projects })).toEqual([
      'projects.beta.project: "3" is not a project of the embedded sandbox, which hosts projects 1..2 (sandbox.projects: 2; raise it, or set projects.beta.base_url for the service)',
    ]);
    // a block with its own base_url is not on the sandbox
    expect(problems({ sandbox: { projects: 1 }, projects: { far: { project: '99', base_url: 'https://api.example.test/v1', api_key: 'k' } } })).toEqual([]);
  });
});
