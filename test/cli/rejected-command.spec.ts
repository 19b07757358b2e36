import type { INestApplication } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_KEY, startSandbox } from '../admin/admin-test-app';
import { removeDir, runCliInProcess, tempDir, writeConfig } from './cli-harness';

const HEADER = 'id;title;created_at;price';

/** `rejected <connection>`: the open rejections as lines, or as the admin API's JSON with --json. */
describe('cli rejected', () => {
  let sandbox: { app: INestApplication; url: string };
  let dir: string;
  let csv: string;
  let config: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = tempDir();
    csv = join(dir, 'deals.csv');
    writeFileSync(csv, [HEADER, 'r1;First;01.02.2025;100', 'r2;Second;30.02.2025;200', 'r3;Third;31.02.2025;300'].join('\n'));
    config = writeConfig(dir, sandbox.url, SANDBOX_KEY, csv);
  });

  afterAll(async () => {
    await sandbox?.app.close();
    removeDir(dir);
  });

  const cli = (...args: string[]) => runCliInProcess([...args, '--config', config]);

  it('says so when nothing is open, lists what a run rejected, and drops a row once it is fixed', async () => {
    expect(await cli('rejected', 'sheet')).toMatchObject({ code: 0, stdout: 'connection sheet: no open rejections\n' });
    expect((await cli('sync', 'sheet')).code).toBe(0);

    const listed = await cli('rejected', 'sheet');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toBe('connection sheet: 2 open rejections (rejected and not fixed yet)');
    expect(lines[1]).toMatch(/^rejected deals r2 \(deals\.csv row 3\) created_at: "30\.02\.2025" is not a valid date · since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(run 1\)$/);
    expect(lines[2]).toMatch(/^rejected deals r3 \(deals\.csv row 4\) created_at: "31\.02\.2025" is not a valid date · since .* \(run 1\)$/);
    expect(lines).toHaveLength(3);

    const paged = await cli('rejected', 'sheet', '--limit', '1');
    expect(paged.stdout.trim().split('\n').slice(1)).toEqual([lines[1], '… 1 more (use --limit and --offset)']);
    expect((await cli('rejected', 'sheet', '--limit', '1', '--offset', '1')).stdout.trim().split('\n').slice(1)).toEqual([lines[2]]);
    expect((await cli('rejected', 'sheet', '--stream', 'clients')).stdout).toBe('connection sheet: no open rejections in clients\n');

    writeFileSync(csv, [HEADER, 'r1;First;01.02.2025;100', 'r2;Second;28.02.2025;200', 'r3;Third;31.02.2025;300'].join('\n'));
    expect((await cli('sync', 'sheet')).code).toBe(0);
    const after = (await cli('rejected', 'sheet')).stdout.trim().split('\n');
    expect(after[0]).toBe('connection sheet: 1 open rejection (rejected and not fixed yet)');
    expect(after[1]).toMatch(/^rejected deals r3 \(deals\.csv row 4\) created_at: "31\.02\.2025" is not a valid date · since (.*) UTC, last .* UTC \(run 2\)$/);
    expect(after[1].match(/since (.*?) UTC/)![1]).toBe(lines[2].match(/since (.*?) UTC/)![1]);
  });

  it('prints the JSON of GET /api/connections/{id}/rejected with --json', async () => {
    const result = await cli('rejected', 'sheet', '--json');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toEqual({
      rejected: [{
        connection_id: 'sheet', stream: 'deals', external_id: 'r3', ref: 'deals.csv row 4', field: 'created_at', reason: '"31.02.2025" is not a valid date',
        excerpt: null, source: 'connector', run_id: 2, first_seen: expect.any(String), last_seen: expect.any(String),
      }],
      total: 1, limit: 100, offset: 0,
    });
    expect(Date.parse(body.rejected[0].first_seen)).toBeLessThan(Date.parse(body.rejected[0].last_seen));
  });

  it('refuses an unknown connection and bad options with exit 1', async () => {
    const unknown = await cli('rejected', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('connection "nope" is not configured');
    expect((await cli('rejected', 'sheet', '--stream', 'orders')).code).toBe(1);
    expect((await cli('rejected', 'sheet', '--offset', '-1')).code).toBe(1);
  });
});
