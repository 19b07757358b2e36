import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { amocrm } from '../fixtures/crm/setup';
import { removeDir, tempDir } from './cli-harness';
import { TMUX, TmuxTerminal } from './tmux-terminal';

const TOKEN = (amocrm.settings('http://x') as { token: string }).token;

/**
 * `init` on a real terminal (tmux) on a sandbox of three projects: the key's projects are offered, each marked with
 * its name in the config; a new one gets a name, its block, and the connection feeds it.
 */
(TMUX ? describe : describe.skip)(`cli init on a terminal offers the key's projects (tmux${TMUX ? '' : ': skipped, tmux is not installed'})`, () => {
  const terminal = new TmuxTerminal('init-projects');
  let crm: CrmServer;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    crm = await startCrmServer(amocrm.handler);
    dir = tempDir();
    config = join(dir, 'tracker-sync.yaml');
    writeFileSync(config, `data_dir: ${join(dir, 'data')}\nsandbox:\n  seed: none\n  budget: "off"\n  projects: 3\nprojects:\n  acme:\n    project: "2"\n`);
    terminal.startInit(config);
  });

  afterAll(async () => {
    terminal.close();
    await crm?.close();
    removeDir(dir);
  });

  it('lists the projects with their names in the config, and writes the chosen new one under the name given', async () => {
    await terminal.waitFor('Which CRM?', 120_000);
    terminal.keys('Enter'); // amocrm
    await terminal.waitFor("The CRM's address");
    terminal.keys('-l', crm.url);
    terminal.keys('Enter');
    await terminal.waitFor('Name of the variable that keeps the CRM token');
    terminal.keys('Enter');
    await terminal.waitFor('The CRM token');
    terminal.keys('-l', TOKEN);
    terminal.keys('Enter');
    await terminal.waitFor('Where do the deals go?');
    terminal.keys('Enter'); // the embedded sandbox
    const offered = await terminal.waitFor('Which project do the deals go to?', 60_000);
    await terminal.waitFor('another project number');
    const shown = terminal.screen();
    expect(offered).toContain('Which project do the deals go to?');
    expect(shown).toContain('1  Demo project (in the config as default)');
    expect(shown).toContain('2  Project 2 (in the config as acme)');
    expect(shown).toMatch(/3 {2}Project 3\s*$/m);
    terminal.keys('Down', 'Down', 'Enter'); // project 3, not configured yet
    await terminal.waitFor('A name for project 3 in this config (under projects:)');
    terminal.keys('Enter'); // project-3, from its title
    await terminal.waitFor('A name for this connection');
    terminal.keys('Enter');
    await terminal.waitFor('How often to sync (cron)');
    terminal.keys('Enter');
    await terminal.waitFor('Use this mapping?', 60_000);
    terminal.keys('Enter'); // accept
    await terminal.waitFor('Run a first sync now?', 60_000);
    terminal.keys('n', 'Enter');
    await terminal.waitFor('init exited 0');

    const written = parse(readFileSync(config, 'utf8')) as { projects: object; connections: { id: string; project?: string }[] };
    expect(written.projects).toEqual({ acme: { project: '2' }, 'project-3': { project: '3' } });
    expect(written.connections).toEqual([expect.objectContaining({ id: 'amocrm', project: 'project-3', connector: 'generic-crm' })]);
  }, 300_000);
});
