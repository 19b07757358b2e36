/**
 * `init` edits the config file in place: everything outside the text it adds is byte for byte what it was
 * (comments and their alignment, commented examples under a connection, section comments, order).
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pair, parse, Scalar, YAMLMap } from 'yaml';
import { ConfigDocument, UneditableConfigError } from '../../src/cli/init/config-writer';
import { validateConfig } from '../../src/config';
import { removeDir, tempDir } from './cli-harness';

const NEW_CONNECTION = { id: 'amo', connector: 'generic-crm', schedule: '*/15 * * * *', settings: { preset: 'amocrm', base_url: 'http://127.0.0.1:9', token: '${AMO_TOKEN}' } };

/** What discovery adds under settings: a status map with a comment on each value, as proposal-yaml makes it. */
function proposedPairs(): Pair[] {
  const map = new YAMLMap();
  const won = new Scalar('1');
  won.type = Scalar.QUOTE_DOUBLE;
  won.comment = ' Продажи: Успешно реализовано (won) → paid';
  const key = new Scalar('142');
  key.type = Scalar.QUOTE_DOUBLE;
  map.add(new Pair(key, won));
  return [new Pair(new Scalar('status_map'), map)];
}

/** The one insertion that turns `before` into `after`, or a failure showing where they part. */
function insertedText(before: string, after: string): { at: number; text: string } {
  let at = 0;
  while (at < before.length && before[at] === after[at]) at++;
  const text = after.slice(at, at + after.length - before.length);
  expect(after.slice(0, at) + after.slice(at + text.length)).toBe(before);
  return { at, text };
}

/** A config written by hand: aligned trailing comments, a commented block under the last connection, section comments. */
const HAND_WRITTEN = [
  '# the shop',
  'server:',
  '  host: 127.0.0.1    # loopback',
  '  port: 3000         # env PORT',
  '',
  'admin:',
  '  # token: ${ADMIN_TOKEN}   # generated when absent',
  '',
  '# ---- connections ----',
  'connections:',
  '- id: sheet',
  '  connector: spreadsheet',
  '  settings:',
  '    deals: { path: ./deals.csv }   # the export',
  '  sync:',
  '    lag_seconds: 0',
  '  # webhook:',
  '  #   secret: ${HOOK_SECRET}      # required',
  '  #   debounce: 3s               # one run per burst',
  '',
  '# ---- alerts ----',
  'alerts: []',
  '#  - id: ops',
  '#    type: webhook',
].join('\n');

describe('ConfigDocument: init edits the config file in place', () => {
  let dir: string;

  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it('adds a connection to the shipped config: the file outside the inserted text is unchanged', () => {
    const path = join(dir, 'tracker-sync.yaml');
    copyFileSync('config/tracker-sync.yaml', path);
    const before = readFileSync(path, 'utf8');
    const config = ConfigDocument.read(path);
    config.addConnection(NEW_CONNECTION, proposedPairs());

    const { at, text } = insertedText(before, config.text());
    // after the commented webhook example of demo-sheet (it stays demo-sheet's), before the alerts' section comment
    expect(before.slice(0, at).endsWith('    #     max_age: 5m\n')).toBe(true);
    expect(before.slice(at)).toMatch(/^\n# Alerts of a broken sync/);
    expect(text).toBe([
      '  - id: amo',
      '    connector: generic-crm',
      '    schedule: "*/15 * * * *"',
      '    settings:',
      '      preset: amocrm',
      '      base_url: http://127.0.0.1:9',
      '      token: ${AMO_TOKEN}',
      '      status_map:',
      '        "142": "1" # Продажи: Успешно реализовано (won) → paid',
      '',
    ].join('\n'));
    const written = parse(config.text());
    expect(written.connections.map((c: { id: string }) => c.id)).toEqual(['demo-sheet', 'amo']);
    expect(written.admin).toBeNull();
    expect(() => validateConfig(written, { env: {} })).not.toThrow();
  });

  it('sets tracker keys in place: only the values change, their comments keep their column', () => {
    const path = join(dir, 'tracker-sync.yaml');
    copyFileSync('config/tracker-sync.yaml', path);
    const before = readFileSync(path, 'utf8');
    const config = ConfigDocument.read(path);
    config.setTracker({ base_url: 'http://127.0.0.1:9/api', api_key: '${SERVICE_KEY}', project: '42' });

    const changed = (text: string) => text.split('\n').filter((line) => /^ {2}(base_url|api_key|project):/.test(line));
    expect(changed(config.text())).toEqual([
      '  base_url: http://127.0.0.1:9/api   # e.g. https://<the service>/api/v1',
      '  api_key: ${SERVICE_KEY}            # required with base_url',
      '  project: "42"                      # project number; required with base_url',
    ]);
    expect(changed(config.text()).map((line) => line.indexOf('#'))).toEqual(changed(before).map((line) => line.indexOf('#')));
    const others = (text: string) => text.split('\n').filter((line) => !/^ {2}(base_url|api_key|project):/.test(line));
    expect(others(config.text())).toEqual(others(before));
  });

  it('adds a connection and a tracker section to a hand-written file: every byte of it kept', () => {
    const path = join(dir, 'hand.yaml');
    writeFileSync(path, HAND_WRITTEN); // no line break at the end either
    const config = ConfigDocument.read(path);
    config.addConnection(NEW_CONNECTION);
    const withConnection = config.text();
    const { at, text } = insertedText(HAND_WRITTEN, withConnection);
    expect(HAND_WRITTEN.slice(0, at).endsWith('  #   debounce: 3s               # one run per burst\n')).toBe(true);
    expect(text.startsWith('- id: amo\n  connector: generic-crm\n')).toBe(true);

    config.setTracker({ base_url: 'http://127.0.0.1:9/api/v1', api_key: '${SERVICE_KEY}', project: '42' });
    const appended = insertedText(withConnection, config.text());
    expect(appended).toEqual({ at: withConnection.length, text: '\n\ntracker:\n  base_url: http://127.0.0.1:9/api/v1\n' + '  api_key: ${SERVICE_KEY}\n  project: "42"\n' });
    const written = parse(config.text());
    expect(written.tracker).toEqual({ base_url: 'http://127.0.0.1:9/api/v1', api_key: '${SERVICE_KEY}', project: '42' });
    expect(written.connections.map((c: { id: string }) => c.id)).toEqual(['sheet', 'amo']);
    expect(written.connections[0].webhook).toBeUndefined();
  });

  it('turns `connections: []` into a list holding the new connection, the rest kept', () => {
    const path = join(dir, 'empty.yaml');
    const before = 'data_dir: ./data   # the store\nconnections: []   # none yet\nlog:\n  level: warn\n';
    writeFileSync(path, before);
    const config = ConfigDocument.read(path);
    config.addConnection(NEW_CONNECTION);
    expect(config.text()).toBe(
      'data_dir: ./data   # the store\nconnections:    # none yet\n  - id: amo\n    connector: generic-crm\n    schedule: "*/15 * * * *"\n' +
        '    settings:\n      preset: amocrm\n      base_url: http://127.0.0.1:9\n      token: ${AMO_TOKEN}\nlog:\n  level: warn\n',
    );
  });

  it("adds a project to the shipped config's `projects: {}`: the block in its place, the comments kept", () => {
    const path = join(dir, 'tracker-sync.yaml');
    copyFileSync('config/tracker-sync.yaml', path);
    const before = readFileSync(path, 'utf8');
    expect(before).toMatch(/^projects: \{\}\n#  acme:\n/m);
    const config = ConfigDocument.read(path);
    config.addProject('acme', { project: '2' });

    expect(config.text()).toBe(before.replace(/^projects: \{\}\n/m, 'projects:\n  acme:\n    project: "2"\n'));
    expect(parse(config.text()).projects).toEqual({ acme: { project: '2' } });
  });

  it('says what it cannot edit (a flow mapping with entries) and what to change by hand, never that the file is invalid', () => {
    const path = join(dir, 'flow.yaml');
    writeFileSync(path, 'projects: { acme: { project: "2" } }\n');
    const config = ConfigDocument.read(path);
    const adding = () => config.addProject('beta', { project: '3' });
    expect(adding).toThrow(UneditableConfigError);
    expect(adding).toThrow(`init cannot edit projects: in ${path}: it is a flow mapping ({...}) with entries; write it as one "name:" block per line, or add projects.beta by hand. Nothing was written.`);
    expect(readFileSync(path, 'utf8')).toBe('projects: { acme: { project: "2" } }\n');
  });
});
