/**
 * `npm run sandbox` as a real process: without --db it opens its own file, never ./data/sandbox.sqlite (the
 * daemon's embedded sandbox), says which file in its first line, and serves its own OpenAPI document at /docs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../daemon/daemon-harness';
import { ROOT } from '../support/node-entry';
import { freePort, Proc, spawnEntry } from '../support/spawn-entry';

/** In a folder of its own, as a user would start it there (ts-node, when used, still needs the repo's tsconfig). */
function startSandbox(cwd: string, args: string[]): Proc {
  return spawnEntry('sandbox', 'sandbox/standalone', args, { TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') }, cwd);
}

describe('standalone sandbox (npm run sandbox)', () => {
  const cwd = tempDir('standalone-sandbox');
  let sandbox: Proc | undefined;

  afterEach(async () => {
    await sandbox?.stop();
    sandbox = undefined;
  });
  afterAll(() => cwd.remove());

  it("opens ./data/sandbox-standalone.sqlite without --db, says so first, and leaves the daemon's file alone", async () => {
    const port = await freePort();
    sandbox = startSandbox(cwd.path, ['--port', String(port)]);
    await sandbox.waitFor(/^api-key: /m, 60_000);
    expect(sandbox.output().split('\n')[0]).toBe('sandbox: database ./data/sandbox-standalone.sqlite (use --db FILE or --db :memory:)');
    expect(existsSync(join(cwd.path, 'data', 'sandbox-standalone.sqlite'))).toBe(true);
    expect(existsSync(join(cwd.path, 'data', 'sandbox.sqlite'))).toBe(false);

    const doc = (await (await fetch(`http://127.0.0.1:${port}/docs-json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/project/add-orders', '/api/v1/project/site/visit/list']));
  }, 90_000);

  it('names the file given with --db, or :memory:; --projects N: its key owns projects 1..N', async () => {
    const port = await freePort();
    sandbox = startSandbox(cwd.path, ['--port', String(port), '--db', ':memory:', '--projects', '3']);
    await sandbox.waitFor(/^api-key: /m, 60_000);
    expect(sandbox.output().split('\n')[0]).toBe('sandbox: database :memory: (use --db FILE or --db :memory:)');
    const key = /^api-key: (\S+)/m.exec(sandbox.output())![1];
    const listed = (await (await fetch(`http://127.0.0.1:${port}/api/v1/user/projects`, { headers: { 'Api-key': key } })).json()) as { projects: { id: number }[] };
    expect(listed.projects.map((project) => project.id)).toEqual([1, 2, 3]);
  }, 90_000);
});
