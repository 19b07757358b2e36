import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm } from '../fixtures/crm/setup';
import { removeDir, tempDir } from './cli-harness';
import { TMUX, TmuxTerminal } from './tmux-terminal';

const TOKEN = (amocrm.settings('http://x') as { token: string }).token;
const terminal = new TmuxTerminal('init');

/**
 * `init` on a real terminal (tmux): each question in turn, the proposed mapping shown, one stage moved to
 * another group, the connection written. Skipped when tmux is not installed (CI installs it: .ci/run).
 */
(TMUX ? describe : describe.skip)(`cli init on a terminal (tmux${TMUX ? '' : ': skipped, tmux is not installed'})`, () => {
  let crm: CrmServer;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    crm = await startCrmServer(amocrm.handler);
    dir = tempDir();
    config = join(dir, 'tracker-sync.yaml');
    writeFileSync(config, `# my config\ndata_dir: ${join(dir, 'data')}\nsandbox:\n  seed: none\n  budget: "off"\n`);
    terminal.startInit(config);
  });

  afterAll(async () => {
    terminal.close();
    await crm?.close();
    removeDir(dir);
  });

  it('asks one question at a time, shows the proposal, lets a stage change group, writes the connection', async () => {
    // the first question waits for the CLI to start: under ts-node on a busy machine that alone can take a minute
    await terminal.waitFor('Which CRM?', 120_000);
    terminal.keys('Enter'); // amocrm, the first preset
    await terminal.waitFor("The CRM's address");
    terminal.keys('-l', crm.url);
    terminal.keys('Enter');
    await terminal.waitFor('Name of the variable that keeps the CRM token');
    terminal.keys('Enter'); // AMO_TOKEN, the default
    await terminal.waitFor('The CRM token (stored in <data_dir>/.env as AMO_TOKEN, never in the YAML)');
    terminal.keys('-l', TOKEN);
    terminal.keys('Enter');
    await terminal.waitFor('Where do the deals go?');
    terminal.keys('Enter'); // the embedded sandbox
    await terminal.waitFor('A name for this connection');
    terminal.keys('Enter'); // amocrm
    await terminal.waitFor('How often to sync (cron)');
    terminal.keys('Enter');
    const proposal = await terminal.waitFor('Use this mapping?');
    expect(proposal).toContain('Proposed mapping:');
    expect(proposal).toContain('"143": "2" # Продажи: Закрыто и не реализовано (lost); Опт: Закрыто и не реализовано (lost) → canceled');
    expect(proposal).not.toContain(TOKEN);
    terminal.keys('Down', 'Enter'); // change a stage's group
    await terminal.waitFor('Which stage?');
    terminal.keys('Down', 'Enter'); // "143", the second key
    await terminal.waitFor('Group of "Продажи: Закрыто и не реализовано"');
    terminal.keys('Up', 'Enter'); // canceled -> paid
    await terminal.waitFor('→ paid');
    terminal.keys('Enter'); // accept
    await terminal.waitFor('Run a first sync now?');
    expect(terminal.screen()).toContain('connection amocrm: source: ok: ');
    terminal.keys('n', 'Enter');
    await terminal.waitFor('init exited 0');

    const written = parse(readFileSync(config, 'utf8')) as { connections: { id: string; settings: Record<string, unknown> }[] };
    expect(readFileSync(config, 'utf8').startsWith('# my config\n')).toBe(true);
    expect(written.connections).toEqual([{
      id: 'amocrm', connector: 'generic-crm', schedule: '*/15 * * * *',
      settings: {
        preset: 'amocrm', base_url: crm.url, token: '${AMO_TOKEN}',
        status_map: { '142': '1', '143': '1', '61001': '0', '61002': '0', '62001': '0' }, visit_field: '580001',
      },
    }]);
    expect(readFileSync(join(dir, 'data', '.env'), 'utf8')).toContain(`AMO_TOKEN='${TOKEN}'`);
  }, 300_000);
});
