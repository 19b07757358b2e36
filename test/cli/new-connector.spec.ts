import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CliResult, removeDir, runCli, runCliInProcess, tempDir } from './cli-harness';

const DEALS = [
  { type: 'manager', id: 'm1', name: 'Anna', email: 'anna@acme.test' },
  { type: 'deal', id: 'd1', title: 'First', created_at: '2025-03-01T10:00:00+03:00', status: '0', visit_id: '1001', manager_id: 'm1' },
  { type: 'deal', id: 'd2', title: 'Second', created_at: '2025-03-02 11:00:00', status: '0' },
];

/** `new-connector` in a child process (its refusals in this one): the copy, its refusals, and the new plugin synced from outside the repo. */
describe('cli new-connector (child process)', () => {
  let dir: string;
  let created: CliResult;
  let again: CliResult;
  let badName: CliResult;
  let builtIn: CliResult;
  let sync: CliResult;

  beforeAll(async () => {
    dir = tempDir();
    const plugins = join(dir, 'plugins');
    created = await runCli(['new-connector', 'acme-crm', '--dir', plugins], {}, 80_000);
    // the refusals in this process (same code path as src/cli.ts): each child costs seconds under ts-node
    badName = await runCliInProcess(['new-connector', 'Acme_CRM', '--dir', plugins]);
    builtIn = await runCliInProcess(['new-connector', 'spreadsheet', '--dir', plugins]);
    writeFileSync(join(plugins, 'acme-crm', 'index.ts'), readFileSync(join(plugins, 'acme-crm', 'index.ts'), 'utf8') + '\n// edited by the user\n');
    const source = join(dir, 'acme.jsonl');
    writeFileSync(source, DEALS.map((line) => JSON.stringify(line)).join('\n'));
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      stringify({
        data_dir: join(dir, 'data'),
        tracker: { rate_limit: 'off', retries: 1, timeout_ms: 3000 },
        sandbox: { seed: 'none', budget: 'off' },
        connector_paths: [plugins],
        connections: [{ id: 'acme', connector: 'acme-crm', schedule: '*/10 * * * *', settings: { path: source } }],
      }),
    );
    [again, sync] = await Promise.all([
      runCli(['new-connector', 'acme-crm', '--dir', plugins], {}, 80_000),
      runCli(['sync', 'acme', '--config', config], {}, 80_000),
    ]);
  }, 180_000);

  afterAll(() => removeDir(dir));

  it('copies the template with its name replaced and prints the config snippet', () => {
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const folder = join(dir, 'plugins', 'acme-crm');
    expect(readdirSync(folder).sort()).toEqual(['index.ts', 'json-lines.ts', 'records.ts', 'settings.ts', 'tsconfig.json']);
    const index = readFileSync(join(folder, 'index.ts'), 'utf8');
    expect(index).toContain("name: 'acme-crm',");
    expect(index).toContain("from 'tracker-sync/connector'");
    expect(readFileSync(join(folder, 'settings.ts'), 'utf8')).toContain('export class AcmeCrmSettings {');
    for (const file of readdirSync(folder)) expect(readFileSync(join(folder, file), 'utf8')).not.toMatch(/example-custom|ExampleCustom/);
    expect(created.stdout).toContain(`created ${folder}/ from the example-custom template`);
    expect(created.stdout).toContain(`   connector_paths: [${JSON.stringify(join(dir, 'plugins'))}]\n   connections:\n     - id: acme-crm\n       connector: acme-crm\n`);
    expect(created.stdout).toContain('npm run cli -- check acme-crm');
  });

  it('refuses to overwrite, a bad name, and the name of a built-in', () => {
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`new-connector: ${join(dir, 'plugins', 'acme-crm')} already exists: nothing was written (choose another name, or remove the folder)\n`);
    expect(readFileSync(join(dir, 'plugins', 'acme-crm', 'index.ts'), 'utf8')).toContain('// edited by the user');
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain('"Acme_CRM" is not a connector name');
    expect(existsSync(join(dir, 'plugins', 'Acme_CRM'))).toBe(false);
    expect(builtIn.code).toBe(1);
    expect(builtIn.stderr).toMatch(/connectors\/spreadsheet already exists: nothing was written/);
    expect(existsSync(join(dir, 'plugins', 'spreadsheet'))).toBe(false);
  });

  it('makes a plugin that a real process loads from outside the repository and syncs into the sandbox', () => {
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/^managers: read 1 · sent 1 /m);
    expect(sync.stdout).toMatch(/^deals: read 2 · sent 2 /m);
  });
});
