import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import * as amocrm from '../fixtures/crm/amocrm';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { TaskFixture } from '../fixtures/crm/crm-tasks';
import { generatedDeals, WritableCrm } from '../fixtures/crm/crm-writes';
import { removeDir, runCliInProcess, tempDir } from './cli-harness';

/**
 * `flow manager_tasks <connection> --dry-run` against the amoCRM fixture (its generated deals five days old, every
 * fifth without a visit; the others on the demo visits) and the embedded sandbox: the dry run lists, one line per
 * deal, the task it would make and for whom (the deal's responsible manager as last synced: its CRM id from the
 * order's manager_id, its name from the service's managers), in words (not the flow's JSON), and creates nothing.
 */
describe('cli flow manager_tasks --dry-run', () => {
  const DEALS = 10;
  const withoutVisit = generatedDeals(DEALS).filter((d) => !d.visitId).map((d) => String(7101 + d.index));
  let crm: WritableCrm;
  let tasks: TaskFixture;
  let server: CrmServer;
  let dir: string;
  let config: string;
  const cli = (...args: string[]) => runCliInProcess([...args, '--config', config]);

  beforeAll(async () => {
    crm = amocrm.createCrm({ moreDeals: DEALS, ageDays: 5 });
    tasks = new TaskFixture('amocrm', () => crm.dealIds(), '501');
    server = await startCrmServer(tasks.wrap(crm.handler));
    dir = tempDir();
    config = join(dir, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      tracker: { rate_limit: 'off', retries: 1, timeout_ms: 5000 },
      sandbox: { seed: 'demo', budget: 'off' },
      connections: [{
        id: 'crm',
        connector: 'generic-crm',
        settings: { ...amocrm.settings(server.url), manager_tasks: { days: 3, text: 'Deal {{deal}}: no ad source.' } },
      }],
    }));
  });

  afterAll(async () => {
    await server?.close();
    removeDir(dir);
  });

  it('shows each deal without a visit with the task it would make for its manager, and creates nothing', async () => {
    expect((await cli('sync', 'crm')).code).toBe(0);
    const dry = await cli('flow', 'manager_tasks', 'crm', '--dry-run');
    expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = dry.stdout.trim().split('\n');
    expect(lines[0]).toBe('connection crm: manager-tasks dry run (nothing is created)');
    expect(withoutVisit).toHaveLength(2);
    for (const deal of withoutVisit) {
      const at = lines.findIndex((l) => l.startsWith(`deal ${deal} `));
      // the fixture's generated deals are Анна Петрова's (responsible_user_id 501), a manager the sync sent
      expect(lines[at]).toMatch(new RegExp(`^deal ${deal} \\(created \\d{4}-\\d{2}-\\d{2}, no visit\\) → task for its responsible manager 501 \\(Анна Петрова\\): «Ask the client how they found us»$`));
      expect(lines[at + 1]).toBe(`    Deal ${deal}: no ad source.`);
    }
    expect(lines.filter((l) => l.startsWith('deal '))).toHaveLength(2);
    expect(lines.at(-1)).toBe('manager tasks: due 2 · created 0 · already_created 0 · rejected 0');
    expect(tasks.creates).toBe(0);
    expect(tasks.tasks).toEqual([]);
  });

  it('names the manager in the JSON dry run too (as the admin API answers it)', async () => {
    const dry = await cli('flow', 'manager_tasks', 'crm', '--dry-run', '--json');
    expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' });
    const preview = JSON.parse(dry.stdout) as { tasks: { deal: string; manager: unknown }[] };
    expect(preview.tasks.map((task) => [task.deal, task.manager]).sort()).toEqual(withoutVisit.map((deal) => [deal, { id: '501', name: 'Анна Петрова' }]).sort());
    expect(tasks.creates).toBe(0);
  });
});
