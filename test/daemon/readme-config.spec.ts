/**
 * The README cannot drift from the code: its configuration table lists exactly the keys of the settings
 * classes (type, default, env variable), every connection it shows validates, and every npm script, CLI
 * command and service counter it names exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { STREAM_ORDER } from '../../src/connectors/canonical';
import { loadConnectors } from '../../src/connectors/plugin-loader';
import { ENV_OVERRIDES, listConfigKeys, validateConfig } from '../../src/config';
import { SERVICE_COUNTER_KEYS } from '../../src/engine';
import { buildProgram } from '../../src/cli/program';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
/** every command the CLI has (the README shows each), `help` aside */
const CLI_COMMANDS = buildProgram(async () => 0, { line: () => undefined, error: () => undefined, isTTY: false }, () => undefined)
  .commands.map((command) => command.name())
  .filter((name) => name !== 'help');

/** Rows of the table that starts with `| key | type | default | env | meaning |`. */
function configTable(): Map<string, string[]> {
  const lines = README.split('\n');
  const start = lines.findIndex((l) => /^\| key \| type \| default \| env \| meaning \|/.test(l));
  expect(start).toBeGreaterThan(0);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
    rows.set(cells[0].replace(/`/g, ''), cells.slice(1));
  }
  return rows;
}

function shown(value: unknown): string {
  return value === undefined ? '' : '`' + (typeof value === 'string' ? value : JSON.stringify(value)) + '`';
}

describe('README', () => {
  it('lists every configuration key, and only those, with its type, default and env variable', () => {
    const table = configTable();
    const keys = listConfigKeys();
    expect([...table.keys()].sort()).toEqual(keys.map((k) => k.path).sort());
    const envOf = new Map(ENV_OVERRIDES.map(([variable, path]) => [path, variable]));
    for (const key of keys) {
      const [type, defaultCell, envCell, meaning] = table.get(key.path)!;
      expect({ key: key.path, type, default: defaultCell, env: envCell }).toEqual({
        key: key.path,
        type: key.type,
        default: shown(key.default),
        env: envOf.has(key.path) ? '`' + envOf.get(key.path) + '`' : '',
      });
      expect(meaning.length).toBeGreaterThan(10);
    }
  });

  it('names every environment override', () => {
    for (const [variable] of ENV_OVERRIDES) expect(README).toContain(variable);
  });

  it('shows connections that validate against the connectors (settings included), with the projects and tracker: shown beside them', async () => {
    const registry = await loadConnectors([], { log: () => undefined, warn: () => undefined });
    const blocks = [...README.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
    type Shown = { connections?: unknown[]; projects?: object; tracker?: object } | null;
    const docs = blocks.map((block) => parse(block.startsWith('  - ') ? `connections:\n${block}` : block) as Shown);
    const connections = docs.flatMap((doc) => doc?.connections ?? []);
    // a block that shows projects: shows the tracker: section they are filled from (Agencies)
    const withProjects = docs.find((doc) => doc?.projects && doc.connections);
    const connectors = new Set(connections.map((c) => (c as { connector: string }).connector));
    expect([...connectors].sort()).toEqual(['example-custom', 'generic-crm', 'spreadsheet']);
    const env = {
      AMO_TOKEN: 'x', MY_CRM_TOKEN: 'x', B24_WEBHOOK_CODE: 'x', PIPEDRIVE_TOKEN: 'x', HUBSPOT_TOKEN: 'x',
      TRACKER_BASE_URL: 'https://api.example.test/v1', TRACKER_API_KEY: 'x', TRACKER_PROJECT: '100', GLOBEX_KEY: 'x',
    };
    const document = { connections, projects: withProjects?.projects, tracker: withProjects?.tracker };
    expect(() => validateConfig(document, { env, settingsValidator: registry.validateSettings })).not.toThrow();
    for (const preset of ['amocrm', 'bitrix24', 'pipedrive', 'hubspot']) expect(README).toContain(`| \`${preset}\` |`);
  });

  it('shows one alert of each type, and they validate', () => {
    const blocks = [...README.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
    const alerts = blocks.flatMap((block) => (block.startsWith('alerts:') ? ((parse(block) as { alerts: { type: string }[] }).alerts ?? []) : []));
    expect([...new Set(alerts.map((a) => a.type))].sort()).toEqual(['email', 'slack', 'telegram', 'webhook']);
    const env = { ALERT_WEBHOOK_URL: 'https://example.com/hook', SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/x', TELEGRAM_BOT_TOKEN: '1:x', SMTP_PASSWORD: 'pw' };
    expect(() => validateConfig({ alerts }, { env })).not.toThrow();
  });

  it('names only npm scripts and CLI commands that exist', () => {
    const scripts = [...README.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(5);
    for (const script of scripts) expect({ script, exists: script in PACKAGE.scripts }).toEqual({ script, exists: true });
    const commands = [...README.matchAll(/npm run cli -- ([a-z-]+)/g)].map((m) => m[1]).filter((c) => !c.startsWith('-'));
    expect(new Set(commands)).toEqual(new Set(CLI_COMMANDS));
    for (const stream of [...README.matchAll(/--stream ([a-z]+)/g)].map((m) => m[1])) expect(STREAM_ORDER).toContain(stream);
  });

  it("explains each of the service's counters", () => {
    for (const counter of SERVICE_COUNTER_KEYS) expect(README).toMatch(new RegExp(`^\\| \`${counter}\` \\| .+ \\| .+ \\|$`, 'm'));
    expect(README).toContain('tracker_visit');
  });
});
