/**
 * Where the admin token is after the first start: the daemon prints a generated token once, so every later start
 * says which file keeps it (never the token itself), and the status page's login names that file too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { printedToken, startDaemon, tempDir } from './daemon-harness';

describe('the admin token after the first start', () => {
  const dir = tempDir('token-hint');
  const dataDir = join(dir.path, 'data');
  const file = join(dir.path, 'tracker-sync.yaml');
  const hint = `admin token: in ${dataDir}/admin-token (generated at the first start; or set ADMIN_TOKEN)`;

  beforeAll(() => {
    delete process.env.ADMIN_TOKEN;
    writeFileSync(file, stringify({ data_dir: dataDir, sandbox: { seed: 'none' }, log: { level: 'info' }, connections: [] }));
  });
  afterAll(() => dir.remove());

  async function start(env: Record<string, string> = {}): Promise<{ stdout: string; login: string }> {
    const running = await startDaemon(env, file);
    try {
      const page = await (await fetch(`${running.url}/`)).text();
      return { stdout: running.output.text(), login: /<section id="login"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '' };
    } finally {
      await running.stop();
    }
  }

  it('the first start prints the token; later starts name its file, never the token; the login names the file', async () => {
    const first = await start();
    const token = printedToken(first.stdout);
    expect(token).toBe(readFileSync(join(dataDir, 'admin-token'), 'utf8').trim());
    expect(first.stdout).not.toContain('admin token: in');
    expect(first.login).toContain('<code>&lt;data_dir&gt;/admin-token</code>');

    const second = await start();
    expect(second.stdout).toContain(hint);
    expect(second.stdout).not.toContain(token!);
    expect(second.stdout).not.toContain('Admin API token (shown only this once');
  }, 60_000);

  it('a token set by ADMIN_TOKEN needs no hint (the generated file is there from the first start)', async () => {
    const set = await start({ ADMIN_TOKEN: 'token-hint-set-by-env' });
    expect(set.stdout).toContain('tracker-sync listening on');
    expect(set.stdout).not.toContain('admin token: in');
  }, 60_000);
});
