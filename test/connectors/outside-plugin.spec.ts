import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CliResult, runCli } from '../cli/cli-harness';

/**
 * A user's plugin in a folder outside the repository (no node_modules, no NODE_PATH), written in TypeScript
 * with a type error, importing the contract as `tracker-sync/connector`, its decorators from class-validator
 * and luxon: a real CLI process loads it through `connector_paths` and syncs it into the embedded sandbox.
 * Beside it, a plugin with a syntax error is skipped with a warning, and naming it says why.
 */
const PLUGIN = `
import { readFileSync } from 'fs';
import { IsIn, IsString } from 'class-validator';
import { DateTime } from 'luxon';
import { Deal, defineConnector, Page } from 'tracker-sync/connector';

class OutsideSettings {
  @IsString() path!: string;
  @IsIn(['Europe/Moscow', 'UTC']) zone: string = 'Europe/Moscow';
}

// A type error: the daemon loads the plugin anyway (transpiled, not type-checked).
const pageSize: number = 'fifty';

export default defineConnector<OutsideSettings>({
  name: 'outside-crm',
  settingsClass: OutsideSettings,
  streams: () => [{ name: 'deals', incremental: false }],
  async check(settings) {
    return { ok: true, message: settings.path + ' is here' };
  },
  async *read(stream, _cursor, context) {
    const rows: Array<{ id: string; title: string; created: string }> = JSON.parse(readFileSync(context.settings.path, 'utf8'));
    const page: Page<Deal> = { records: [], refs: [] };
    for (const row of rows) {
      const created = DateTime.fromFormat(row.created, 'dd.MM.yyyy HH:mm', { zone: context.settings.zone });
      page.records.push({ id: row.id, title: row.title, created_at: created.toJSDate(), status: '0' });
      page.refs!.push('deals.json #' + row.id);
    }
    yield page;
  },
});
`;

describe('a plugin outside the repository (child process)', () => {
  let dir: string;
  let sync: CliResult;
  let badConfig: CliResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-plugins-'));
    const plugins = join(dir, 'plugins');
    mkdirSync(join(plugins, 'outside-crm'), { recursive: true });
    mkdirSync(join(plugins, 'broken-crm'), { recursive: true });
    writeFileSync(join(plugins, 'outside-crm', 'index.ts'), PLUGIN);
    writeFileSync(join(plugins, 'broken-crm', 'index.ts'), "import { defineConnector } from 'tracker-sync/connector';\nexport default defineConnector({ name: 'broken-crm', ;\n");
    const deals = join(dir, 'deals.json');
    writeFileSync(deals, JSON.stringify([{ id: 'o1', title: 'First', created: '01.03.2025 10:00' }, { id: 'o2', title: 'Second', created: '02.03.2025 11:30' }]));
    const config = (name: string, connections: object[]) => {
      const file = join(dir, name);
      const settings = { data_dir: join(dir, `data-${name}`), tracker: { rate_limit: 'off', retries: 1, timeout_ms: 3000 }, sandbox: { seed: 'none', budget: 'off' } };
      writeFileSync(file, stringify({ ...settings, connector_paths: [plugins], connections }));
      return file;
    };
    const good = config('good.yaml', [{ id: 'outside', connector: 'outside-crm', schedule: '*/10 * * * *', settings: { path: deals } }]);
    const bad = config('bad.yaml', [
      { id: 'broken', connector: 'broken-crm', schedule: '*/10 * * * *', settings: {} },
      { id: 'outside', connector: 'outside-crm', schedule: '*/10 * * * *', settings: { path: deals, zone: 'Mars/Olympus' } },
    ]);
    [sync, badConfig] = await Promise.all([
      runCli(['sync', 'outside', '--config', good], {}, 80_000),
      runCli(['check', 'outside', '--config', bad], {}, 80_000),
    ]);
  }, 90_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the plugin despite its type error and syncs its deals into the sandbox', () => {
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/^run \d+ succeeded/m);
    expect(sync.stdout).toMatch(/^deals: read 2 · sent 2 · unchanged 0 · rejected 0 /m);
  });

  // (the file's position reads index.ts:2:54 from dist/, index.ts(2,54) under ts-node)
  it('skips the plugin with a syntax error with a warning naming its file and line', () => {
    expect(sync.stdout + sync.stderr).toMatch(/connector plugin .*broken-crm skipped: [^]*broken-crm\/index\.ts[:(]2[:,]\d+/);
  });

  it("says why a connection's connector failed to load, and checks the plugin's settings with its class-validator decorators", () => {
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toMatch(/connections\[0\]\.connector: "broken-crm" failed to load from \S+broken-crm: [^]*broken-crm\/index\.ts[:(]2[:,]\d+/);
    expect(badConfig.stderr).toContain('connections[1].settings.zone: "Mars/Olympus" must be one of the following values: Europe/Moscow, UTC');
  });
});
