import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli';
import type { CliOutput } from '../../src/cli/output/cli-output';
import { removeDir, tempDir } from './cli-harness';

const HEADER = 'id,title,status,created_at,price';
const GOOD = 'D-1,First,new,2026-11-01T10:00:00+03:00,100';
const BAD_DATE = 'D-2,Bad date,new,31.02.2026,200';
const NO_ID = ',No id,new,2026-11-01T10:00:00+03:00,300';
const badPrice = (price: string) => `D-3,Bad price,new,2026-11-01T10:00:00+03:00,${price}`;

/**
 * The line a started run opens with says what the run does: `sync --since` names its day once, and `retry` counts
 * the records it sends again as the engine picks them (its log line counts the same), not every rejected row.
 */
describe('cli: the "run started" line', () => {
  let dir: string;
  let csv: string;
  let config: string;

  beforeAll(() => {
    dir = tempDir();
    csv = join(dir, 'deals.csv');
    config = join(dir, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      sandbox: { seed: 'none', budget: 'off' },
      connections: [{ id: 'sheet', connector: 'spreadsheet', settings: { deals: { path: csv } } }],
    }));
  });

  afterAll(() => removeDir(dir));

  /**
   * The command in this process: its answer's lines, and the log lines it wrote meanwhile (the CLI logs to
   * stderr). Every command here logs at info: in one process, an earlier command's level can hold for a later
   * command's engine lines.
   */
  async function cli(...args: string[]): Promise<{ code: number; lines: string[]; log: string }> {
    const lines: string[] = [];
    const output: CliOutput = { line: (t) => lines.push(t), error: (t) => lines.push(t), isTTY: false };
    const log: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => log.push(String(chunk)) > 0) as typeof process.stderr.write);
    try {
      const code = await runCli(['node', 'cli.js', ...args, '--config', config], { PATH: process.env.PATH, LOG_LEVEL: 'info' }, output);
      return { code, lines, log: log.join('') };
    } finally {
      spy.mockRestore();
    }
  }

  it('sync --since names the day once', async () => {
    writeFileSync(csv, [HEADER, GOOD].join('\n'));
    const since = await cli('sync', 'sheet', '--since', '2026-10-01');
    expect(since.code).toBe(0);
    expect(since.lines).toContainEqual(expect.stringMatching(/^connection sheet: run \d+ started \(since 2026-10-01\)$/));
  }, 60_000);

  it('retry counts what it sends again: not the row without an id, nor the record fixed and sent since; its log line agrees', async () => {
    writeFileSync(csv, [HEADER, GOOD, BAD_DATE, badPrice('abc'), NO_ID].join('\n'));
    const first = await cli('sync', 'sheet', '--json');
    const run = JSON.parse(first.lines.join('\n')) as { id: number; rejected_count: number };
    expect(run.rejected_count).toBe(3);
    // D-3 fixed and sent by the next sync: its rejection of the first run is resolved
    writeFileSync(csv, [HEADER, GOOD, BAD_DATE, badPrice('300'), NO_ID].join('\n'));
    expect((await cli('sync', 'sheet')).code).toBe(0);

    const retry = await cli('retry', String(run.id));
    expect(retry.code).toBe(0);
    const retryId = run.id + 2;
    expect(retry.lines).toContain(
      `connection sheet: run ${retryId} started (retrying 1 of the 3 rejected record(s) of run ${run.id}: the others have no id, repeat an id, or were sent since)`,
    );
    expect(retry.log).toContain(`[sheet run ${retryId}] run started: mode retry, trigger cli (1 rejected records)`);
  }, 90_000);
});
