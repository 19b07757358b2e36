import { writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { ROOT } from '../support/node-entry';
import { spawnDaemon } from './daemon-child';
import { tempDir } from './daemon-harness';

describe('`node main` on a port that is in use', () => {
  const dir = tempDir('port-in-use');
  let occupied: Server;
  let port: number;

  beforeAll(async () => {
    occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    port = (occupied.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => occupied.close(resolve));
    dir.remove();
  });

  it('exits 1 with one line on stderr that says to set PORT, not a stack trace', async () => {
    const config = join(dir.path, 'tracker-sync.yaml');
    writeFileSync(config, `data_dir: ${JSON.stringify(join(dir.path, 'data'))}\nserver: { host: 127.0.0.1 }\nconnections: []\n`);
    const child = spawnDaemon(['--config', config], { PORT: String(port), LOG_FORMAT: 'json' });
    let stderr = '';
    child.proc.stderr!.on('data', (chunk) => (stderr += chunk));
    const exit = await child.exited;
    expect(exit.code).toBe(1);
    expect(stderr).toBe(`port ${port} on 127.0.0.1 is in use: set PORT (or server.port) to another port\n`);
    expect(child.output()).not.toMatch(/\n\s+at /); // no stack trace anywhere
  }, 60_000);

  it('binds before it starts runs: a run_on_start connection gets no run (none left `running`, then `interrupted`)', async () => {
    const demo = join(ROOT, 'config', 'demo');
    const config = join(dir.path, 'demo.yaml');
    const dataDir = join(dir.path, 'demo-data');
    writeFileSync(config, [
      `data_dir: ${JSON.stringify(dataDir)}`,
      'server: { host: 127.0.0.1 }',
      'connections:',
      '  - id: demo-sheet',
      '    connector: spreadsheet',
      '    run_on_start: true',
      '    settings:',
      `      deals: { path: ${JSON.stringify(join(demo, 'deals.csv'))}, status_map: { new: "0", in_work: "0", "142": "1", "143": "2" } }`,
      `      clients: { path: ${JSON.stringify(join(demo, 'clients.csv'))} }`,
      `      managers: { path: ${JSON.stringify(join(demo, 'managers.csv'))} }`,
      '',
    ].join('\n'));
    const child = spawnDaemon(['--config', config], { PORT: String(port), LOG_FORMAT: 'json' });
    const exit = await child.exited;
    expect(exit.code).toBe(1);
    expect(child.output()).toContain(`port ${port} on 127.0.0.1 is in use`);
    const store = await createStoreDataSource({ dataDir });
    try {
      expect(await store.query('SELECT id, status FROM run')).toEqual([]);
    } finally {
      await store.destroy();
    }
  }, 60_000);
});
