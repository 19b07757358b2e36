import { execFile } from 'child_process';
import { join } from 'path';
import { promisify } from 'util';
import { readStream, tempDir } from './read-helper';

const run = promisify(execFile);

describe('spreadsheet connector: streaming', () => {
  const tmp = tempDir();
  const file = join(tmp.dir, 'big.csv');
  afterAll(() => tmp.cleanup());

  // In a child process: jest's vm contexts slow hot loops down several times, and its own heap blurs RSS.
  // The heap is capped as `npm start` caps the daemon's: uncapped, a busy machine lets V8 put off collecting.
  it('reads a 200,000-row CSV with bounded memory, page by page', async () => {
    const probe = join(__dirname, 'probe');
    await run(process.execPath, [join(probe, 'generate-deals.js'), file, '200000'], { timeout: 30_000 });
    const reader = ['--expose-gc', '--max-old-space-size=192', '-r', join(probe, 'register-ts.js'), join(probe, 'read-memory-probe.ts'), file];
    const { stdout } = await run(process.execPath, reader, { timeout: 40_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(result).toMatchObject({ records: 200_000, rejected: 0 });
    expect(result.maxPage).toBeLessThanOrEqual(1000);
    expect(result.peakRssMb - result.baseRssMb).toBeLessThan(150);
    expect(result.peakRssMb).toBeLessThan(250);
  });

  it('reads the first records of the big file quickly when previewing', async () => {
    const started = Date.now();
    const { records } = await readStream({ deals: { path: file } }, 'deals', { limit: 3 });
    expect(records).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
