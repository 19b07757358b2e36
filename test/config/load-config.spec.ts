import { join } from 'path';
import { loadConfig, resolveConfigPath, SettingsValidator } from '../../src/config/load-config';
import { ConnectionConfig, RateLimitConfig, TrackerSyncConfig } from '../../src/config/config.schema';
import { ConfigFiles, configErrorOf } from './config-files';
import genericCrm from '../../connectors/generic-crm';
import spreadsheet from '../../connectors/spreadsheet';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';

const files = new ConfigFiles();
afterAll(() => files.remove());

/** Loads YAML text from a real file with a controlled environment (never the test runner's). */
function load(yaml: string, env: NodeJS.ProcessEnv = {}, settingsValidator?: SettingsValidator): TrackerSyncConfig {
  return loadConfig({ file: files.write(yaml), env, argv: [], settingsValidator });
}

const ONE_CONNECTION = `
connections:
  - id: crm
    connector: generic-crm
    schedule: "*/5 * * * *"
    settings: { preset: amocrm }
`;

describe('loadConfig: every problem, with its path', () => {
  it('reports all problems of a file at once, one per line', () => {
    const error = configErrorOf(() =>
      load(`
server: { port: 70000 }
tracker:
  batch_size: abc
  concurrency: 0
log: { level: loud }
connections:
  - id: ok
    connector: spreadsheet
  - id: second
    connector: spreadsheet
    schedule: "*/5 * *"
    paused: maybe
`),
    );
    expect(error.problems).toEqual([
      'server.port: 70000 must be an integer between 0 and 65535',
      'tracker.batch_size: "abc" must be an integer between 1 and 10000',
      'tracker.concurrency: 0 must be an integer between 1 and 32',
      'log.level: "loud" must be one of "debug", "info", "warn", "error"',
      expect.stringMatching(/^connections\[1\]\.schedule: "\*\/5 \* \*" is not a cron expression/),
      'connections[1].paused: "maybe" must be true or false',
    ]);
    for (const problem of error.problems) expect(error.message.split('\n')).toContain(`  ${problem}`);
    expect(error.file).toMatch(/config-\d+\.yaml$/);
  });

  it('rejects unknown keys at the top level, in sections and inside a connection', () => {
    const error = configErrorOf(() =>
      load(`
trackr: {}
tracker: { bacth_size: 100, rate_limit: { per_minute: 3 } }
connections:
  - id: a
    connector: spreadsheet
    shedule: "* * * * *"
    sync: { overlap: 10 }
`),
    );
    expect(error.problems).toEqual([
      'trackr: unknown key (did you mean "tracker"?)',
      'tracker.bacth_size: unknown key (did you mean "batch_size"?)',
      'tracker.rate_limit.per_minute: unknown key',
      'connections[0].shedule: unknown key (did you mean "schedule"?)',
      'connections[0].sync.overlap: unknown key',
    ]);
  });

  it('leaves a connection\'s settings to the settings validator, whose problems are included', () => {
    const calls: Array<[string, unknown, string]> = [];
    const validator: SettingsValidator = (connector, settings, path) => {
      calls.push([connector, settings, path]);
      return connector === 'nope' ? [`connections[1].connector: unknown connector "nope"`] : [`${path}.deals.path: is required`];
    };
    const error = configErrorOf(() =>
      load(
        `
connections:
  - { id: a, connector: spreadsheet, settings: { delas: { path: x.csv } } }
  - { id: b, connector: nope }
`,
        {},
        validator,
      ),
    );
    expect(calls).toEqual([
      ['spreadsheet', { delas: { path: 'x.csv' } }, 'connections[0].settings'],
      ['nope', {}, 'connections[1].settings'],
    ]);
    expect(error.problems).toEqual(['connections[0].settings.deals.path: is required', 'connections[1].connector: unknown connector "nope"']);
  });

  it('suggests the meant key for a typo in connector settings, nested keys included, as at the top level', () => {
    const registry = new ConnectorRegistry();
    registry.register(genericCrm);
    registry.register(spreadsheet);
    const yaml = `
connections:
  - { id: sheet, connector: spreadsheet, settings: { delas: { path: d.csv }, clients: { path: c.csv, colums: { id: No } } } }
  - { id: crm, connector: generic-crm, settings: { preset: amocrm, base_url: "https://x.amocrm.ru", token: t, rate_limt: 3, zzz: 1 } }
`;
    expect(configErrorOf(() => load(yaml, {}, registry.validateSettings)).problems).toEqual([
      'connections[0].settings.delas: unknown key (did you mean "deals"?)',
      'connections[0].settings.clients.colums: unknown key (did you mean "columns"?)',
      'connections[1].settings.rate_limt: unknown key (did you mean "rate_limit"?)',
      'connections[1].settings.zzz: unknown key',
    ]);
  });

  it('reports duplicate connection ids, required and badly typed fields', () => {
    const error = configErrorOf(() =>
      load(`
connections:
  - { id: sheet, connector: spreadsheet }
  - { id: Sheet, connector: spreadsheet }
  - { connector: spreadsheet, settings: [1] }
  - { id: "-bad", connector: spreadsheet, sync: { batch_size: 0 } }
  - just a string
`),
    );
    expect(error.problems).toEqual([
      'connections[2].id: is required',
      'connections[2].settings: [1] must be a mapping (key: value)',
      'connections[3].id: "-bad" must start with a letter or digit and contain only letters, digits, "-" and "_"',
      'connections[3].sync.batch_size: 0 must be an integer between 1 and 10000',
      'connections[4]: "just a string" must be a mapping (key: value)',
      'connections[1].id: "Sheet" is already the id of connections[0]',
    ]);
  });

  it('explains why a schedule is not a cron expression', () => {
    const schedules = ['61 * * * *', '0 0 31 2 *', '0 0 L * *', '@daily'];
    const yaml = `connections:\n${schedules.map((s, i) => `  - { id: c${i}, connector: x, schedule: "${s}" }`).join('\n')}`;
    const problems = configErrorOf(() => load(yaml)).problems;
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^connections\[0\]\.schedule: "61 \* \* \* \*" is not a cron expression \(.*59/);
    expect(problems[1]).toMatch(/^connections\[1\]\.schedule: .* is not a cron expression \(.*day of month/);
    expect(problems[2]).toMatch(/^connections\[2\]\.schedule: .*scheduler does not support/);
    expect(problems[3]).toMatch(/^connections\[3\]\.schedule: "@daily" is not a cron expression \(has 1 field;/);
    expect(load(`connections: [{ id: a, connector: x, schedule: "0 */5 * * * *" }]`).connections[0].schedule).toBe('0 */5 * * * *');
  });

  it('requires a key and a project when pointing at the real service, and never prints the key', () => {
    const error = configErrorOf(() => load('tracker: { base_url: "https://service.example/api/v1" }'));
    expect(error.problems).toEqual([
      'tracker.api_key: is required when tracker.base_url is set (or set TRACKER_API_KEY)',
      'tracker.project: is required when tracker.base_url is set (or set TRACKER_PROJECT)',
    ]);
    const leaked = configErrorOf(() => load('tracker: { base_url: ftp://x, api_key: [s3cr3t-key], project: abc }'));
    expect(leaked.problems).toEqual([
      'tracker.base_url: "ftp://x" must be a URL starting with http:// or https://',
      'tracker.api_key: "***" must be a non-empty string',
      'tracker.project: "abc" must be a project number (digits only)',
    ]);
    expect(leaked.message).not.toContain('s3cr3t');
  });
});

describe('loadConfig: values and defaults', () => {
  it('fills every default for an empty file', () => {
    const config = load('# nothing here\n');
    expect(config).toBeInstanceOf(TrackerSyncConfig);
    expect(config.server).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(config.data_dir).toBe('./data');
    expect(config.tracker.base_url).toBeUndefined();
    expect(config.tracker).toMatchObject({ batch_size: 500, concurrency: 4, timeout_ms: 30000, retries: 5 });
    expect(config.tracker.rate_limit).toEqual({ per_second: 8, per_hour: 4000 });
    expect(config.sandbox).toEqual({ seed: 'demo', db: join('./data', 'sandbox.sqlite'), projects: 1, budget: 'on', faults: 0, latency_ms: 0 });
    expect(config.scheduler).toEqual({ concurrency: 16 });
    expect(config.log).toEqual({ level: 'info', format: 'pretty' });
    expect(config.store.url).toBeUndefined();
    expect(config.connector_paths).toEqual([]);
    expect(config.connections).toEqual([]);
  });

  it('gives each connection its defaults and keeps its settings as written', () => {
    const [connection] = load(ONE_CONNECTION).connections;
    expect(connection).toBeInstanceOf(ConnectionConfig);
    expect(connection).toMatchObject({ id: 'crm', connector: 'generic-crm', paused: false, run_on_start: false });
    expect(connection.settings).toEqual({ preset: 'amocrm' });
    expect(connection.sync).toEqual({ overlap_seconds: 300, lag_seconds: 0, delete_missing_managers: true });
  });

  it('accepts rate_limit: off and budget: off', () => {
    const config = load('tracker: { rate_limit: off }\nsandbox: { budget: off, faults: 0.2 }');
    expect(config.tracker.rate_limit).toBe('off');
    expect(config.sandbox.budget).toBe('off');
    expect(config.sandbox.faults).toBe(0.2);
    const partial = load('tracker: { rate_limit: { per_second: 2 } }').tracker.rate_limit as RateLimitConfig;
    expect(partial).toEqual({ per_second: 2, per_hour: 4000 });
    expect(configErrorOf(() => load('tracker: { rate_limit: of }')).problems).toEqual([
      'tracker.rate_limit: "of" must be "off" or a mapping { per_second, per_hour }',
    ]);
  });
});

describe('loadConfig: environment', () => {
  const file = `
server: { port: "\${APP_PORT:-4000}" }
data_dir: \${HOME_DIR}/data
tracker:
  base_url: \${TRACKER_BASE_URL}
  api_key: \${TRACKER_API_KEY}
  project: "\${TRACKER_PROJECT}"
  batch_size: \${BATCH:-250}
connections:
  - id: crm
    connector: generic-crm
    paused: \${PAUSED:-false}
    settings: { token: "\${CRM_TOKEN}", note: "a $\${LITERAL} stays", header: "x-\${MISSING}-y" }
`;

  it('expands ${NAME} and ${NAME:-default}; an unset variable makes an optional value absent', () => {
    const config = load(file, { HOME_DIR: '/srv' });
    expect(config.server.port).toBe(4000);
    expect(config.data_dir).toBe('/srv/data');
    expect(config.tracker.base_url).toBeUndefined();
    expect(config.tracker.api_key).toBeUndefined();
    expect(config.tracker.project).toBeUndefined();
    expect(config.tracker.batch_size).toBe(250);
    expect(config.connections[0].paused).toBe(false);
    expect(config.connections[0].settings).toEqual({ note: 'a ${LITERAL} stays', header: 'x--y' });
  });

  it('uses the variables when set, converting numbers and booleans', () => {
    const env = {
      APP_PORT: '4100',
      BATCH: '1000',
      PAUSED: 'true',
      CRM_TOKEN: 'tok',
      TRACKER_BASE_URL: 'https://service.example/api/v1',
      TRACKER_API_KEY: 'key-1',
      TRACKER_PROJECT: '42',
    };
    const config = load(file, env);
    expect(config.server.port).toBe(4100);
    expect(config.tracker).toMatchObject({ base_url: env.TRACKER_BASE_URL, api_key: 'key-1', project: '42', batch_size: 1000 });
    expect(config.connections[0].paused).toBe(true);
    expect(config.connections[0].settings.token).toBe('tok');
  });

  it('lets the documented variables override the file', () => {
    const yaml = `
server: { port: 3000 }
data_dir: ./elsewhere
tracker: { base_url: "http://file.example", api_key: from-file, project: "1" }
admin: { token: from-file }
log: { level: info, format: pretty }
`;
    const config = load(yaml, {
      TRACKER_BASE_URL: 'http://127.0.0.1:4010/api/v1',
      TRACKER_API_KEY: 'from-env',
      TRACKER_PROJECT: '7',
      ADMIN_TOKEN: 'admin-env',
      DATA_DIR: '/var/lib/tracker-sync',
      PORT: '8080',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      DATABASE_URL: 'postgres://u:p@db:5432/sync',
    });
    expect(config.server.port).toBe(8080);
    expect(config.data_dir).toBe('/var/lib/tracker-sync');
    expect(config.tracker).toMatchObject({ base_url: 'http://127.0.0.1:4010/api/v1', api_key: 'from-env', project: '7' });
    expect(config.admin.token).toBe('admin-env');
    expect(config.log).toEqual({ level: 'debug', format: 'json' });
    expect(config.store.url).toBe('postgres://u:p@db:5432/sync');
    expect(config.sandbox.db).toBe(join('/var/lib/tracker-sync', 'sandbox.sqlite'));
  });

  it('blames a bad override on its variable', () => {
    const error = configErrorOf(() => load('{}', { PORT: 'eighty', LOG_FORMAT: 'xml' }));
    expect(error.problems).toEqual([
      'server.port: "eighty" must be an integer between 0 and 65535 (from PORT)',
      'log.format: "xml" must be one of "pretty", "json" (from LOG_FORMAT)',
    ]);
  });

  it('names the variable when a required setting, at any depth, is left out because its variable is unset', () => {
    const registry = new ConnectorRegistry();
    registry.register(genericCrm);
    registry.register(spreadsheet);
    const yaml = `
tracker: { base_url: "https://service.example/api/v1", api_key: "\${SERVICE_KEY}", project: "7" }
connections:
  - id: "\${CONNECTION_ID}"
    connector: generic-crm
    settings: { preset: amocrm, base_url: "https://x.amocrm.ru", token: "\${AMO_TOKEN}" }
  - id: sheet
    connector: spreadsheet
    settings: { deals: { path: "\${SHEETS}\${DEALS_FILE:-}" }, clients: { path: "\${SHEETS}/clients.csv" } }
`;
    const error = configErrorOf(() => load(yaml, { SHEETS: '' }, registry.validateSettings));
    expect(error.problems).toEqual([
      'connections[0].id: ${CONNECTION_ID} is not set (environment variable CONNECTION_ID)',
      'tracker.api_key: ${SERVICE_KEY} is not set (environment variable SERVICE_KEY)',
      'connections[0].settings.token: ${AMO_TOKEN} is not set (environment variable AMO_TOKEN)',
      'connections[1].settings.deals.path: ${SHEETS}${DEALS_FILE:-} is not set (environment variable SHEETS)',
    ]);
    expect(error.message).not.toContain('should not be empty');
  });

  it('keeps the problem of a value that kept other text, and says which variable is not set', () => {
    const error = configErrorOf(() => load('tracker: { base_url: "https://${SERVICE_HOST}:${SERVICE_PORT}/api/v1", api_key: k, project: "1" }'));
    expect(error.problems).toEqual([
      'tracker.base_url: "https://:/api/v1" must be a URL starting with http:// or https:// (environment variables SERVICE_HOST, SERVICE_PORT not set)',
    ]);
  });

  it('expands values, not text, so a quote in a variable cannot break the YAML', () => {
    const config = load('tracker: { base_url: "${URL}", api_key: "${KEY}", project: "1" }', { URL: 'http://x.example', KEY: 'a"b: c\n- d' });
    expect(config.tracker.api_key).toBe('a"b: c\n- d');
  });
});

describe('loadConfig: files', () => {
  it('reports YAML syntax errors with line and column, hiding secrets on the quoted line', () => {
    const error = configErrorOf(() => load('tracker:\n  api_key: "s3cr3t\nserver: {}\n'));
    expect(error.problems[0]).toMatch(/^line \d+, column \d+: /);
    expect(error.message).not.toContain('s3cr3t');
    const duplicate = configErrorOf(() => load('log: {}\nserver: {}\nlog: {}\n'));
    expect(duplicate.problems).toEqual(['line 3, column 1: Map keys must be unique ("log: {}")']);
  });

  it('rejects a file that is not a mapping', () => {
    expect(configErrorOf(() => load('- a\n- b\n')).problems).toEqual([
      'the file must be a mapping of sections (server:, tracker:, connections:, ...)',
    ]);
  });

  it('fails on a missing file named explicitly, from any source', () => {
    const missing = join(files.dir, 'absent.yaml');
    expect(configErrorOf(() => loadConfig({ file: missing, env: {} })).problems).toEqual([
      `cannot read config file ${missing} (named by loadConfig): file not found`,
    ]);
    expect(configErrorOf(() => loadConfig({ argv: ['node', 'main', '--config', missing], env: {} })).message).toContain(
      '(named by --config): file not found',
    );
    expect(configErrorOf(() => loadConfig({ argv: [], env: { TRACKER_SYNC_CONFIG: missing } })).message).toContain(
      '(named by TRACKER_SYNC_CONFIG): file not found',
    );
  });

  it('uses all defaults when the default file is absent', () => {
    const cwd = process.cwd();
    process.chdir(files.dir);
    try {
      expect(loadConfig({ argv: [], env: {} }).connections).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('finds the file: --config, then TRACKER_SYNC_CONFIG, then the default', () => {
    expect(resolveConfigPath(['node', 'cli', 'sync', '--config', 'a.yaml'], { TRACKER_SYNC_CONFIG: 'b.yaml' })).toBe('a.yaml');
    expect(resolveConfigPath(['node', 'cli', '--config=c.yaml'], {})).toBe('c.yaml');
    expect(resolveConfigPath(['node', 'cli'], { TRACKER_SYNC_CONFIG: 'b.yaml' })).toBe('b.yaml');
    expect(resolveConfigPath(['node', 'cli'], {})).toBe('config/tracker-sync.yaml');
    expect(configErrorOf(() => resolveConfigPath(['node', 'cli', '--config'], {})).problems).toEqual([
      '--config needs a file name: --config FILE',
    ]);
  });

  it('loads the repository\'s config/tracker-sync.yaml cleanly with no environment', () => {
    const config = loadConfig({ file: join(__dirname, '../../config/tracker-sync.yaml'), env: {} });
    expect(config.tracker.base_url).toBeUndefined();
    expect(config.tracker.project).toBeUndefined();
    expect(config.tracker.batch_size).toBe(500);
    expect(config.connections).toHaveLength(1);
    expect(config.connections[0]).toMatchObject({
      id: 'demo-sheet',
      connector: 'spreadsheet',
      schedule: '*/15 * * * *',
      run_on_start: true,
      settings: {
        deals: { path: './config/demo/deals.csv' },
        clients: { path: './config/demo/clients.csv' },
        managers: { path: './config/demo/managers.csv' },
      },
    });
  });
});
