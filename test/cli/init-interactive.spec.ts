import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm } from '../fixtures/crm/setup';
import { nodeEntry, ROOT } from '../support/node-entry';
import { removeDir, tempDir } from './cli-harness';

const TMUX = spawnSync('tmux', ['-V']).status === 0;
const TOKEN = (amocrm.settings('http://x') as { token: string }).token;
/** our own tmux server: nothing of the user's sessions is touched, and it is ended by its socket name */
const SOCKET = `tracker-sync-init-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'init');
}

async function waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const shown = screen();
    if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${String(text)}; the terminal shows:\n${shown}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Types keys into the terminal, as a user would. */
function keys(...input: string[]): void {
  tmux('send-keys', '-t', 'init', ...input);
}

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
    const command = [
      'cd', JSON.stringify(ROOT), '&&', 'env', '-u', 'AMO_TOKEN', 'LOG_LEVEL=warn',
      ...[process.execPath, ...nodeEntry('cli'), 'init', '--config', config].map((part) => JSON.stringify(part)),
      '; echo "init exited $?"; sleep 120',
    ].join(' ');
    tmux('new-session', '-d', '-s', 'init', '-x', '200', '-y', '60', command);
  });

  afterAll(async () => {
    if (TMUX) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
    await crm?.close();
    removeDir(dir);
  });

  it('asks one question at a time, shows the proposal, lets a stage change group, writes the connection', async () => {
    // the first question waits for the CLI to start: under ts-node on a busy machine that alone can take a minute
    await waitFor('Which CRM?', 120_000);
    keys('Enter'); // amocrm, the first preset
    await waitFor("The CRM's address");
    keys('-l', crm.url);
    keys('Enter');
    await waitFor('Name of the variable that keeps the CRM token');
    keys('Enter'); // AMO_TOKEN, the default
    await waitFor('The CRM token (stored in <data_dir>/.env as AMO_TOKEN, never in the YAML)');
    keys('-l', TOKEN);
    keys('Enter');
    await waitFor('Where do the deals go?');
    keys('Enter'); // the embedded sandbox
    await waitFor('A name for this connection');
    keys('Enter'); // amocrm
    await waitFor('How often to sync (cron)');
    keys('Enter');
    const proposal = await waitFor('Use this mapping?');
    expect(proposal).toContain('Proposed mapping:');
    expect(proposal).toContain('"143": "2" # Продажи: Закрыто и не реализовано (lost); Опт: Закрыто и не реализовано (lost) → canceled');
    expect(proposal).not.toContain(TOKEN);
    keys('Down', 'Enter'); // change a stage's group
    await waitFor('Which stage?');
    keys('Down', 'Enter'); // "143", the second key
    await waitFor('Group of "Продажи: Закрыто и не реализовано"');
    keys('Up', 'Enter'); // canceled -> paid
    await waitFor('→ paid');
    keys('Enter'); // accept
    await waitFor('Run a first sync now?');
    expect(screen()).toContain('connection amocrm: source: ok: ');
    keys('n', 'Enter');
    await waitFor('init exited 0');

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
