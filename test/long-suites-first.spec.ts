import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm test` on a clean clone (no jest cache, so no durations): jest's default order is by file size, which put the
 * longest suite (cluster-mode-daemons.spec.ts, a dozen lines) last. The sequencer of jest.config.js starts the
 * declared long suites first whatever their size, and keeps jest's order for the rest.
 */
const ROOT = resolve(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, 'jest.config.js')) as { testSequencer?: string };

interface FakeTest {
  path: string;
  context: { config: { cache: boolean; id: string; cacheDirectory: string }; hasteFS: { getSize(path: string): number } };
}

describe('the order of npm test', () => {
  it('starts the known-long suites first on a clean clone (jest would order them by file size)', () => {
    expect(config.testSequencer).toBeDefined();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Sequencer = require(config.testSequencer!.replace('<rootDir>', ROOT));
    const long: string[] = Sequencer.LONG_SUITES;
    for (const suite of long) expect([suite, existsSync(join(ROOT, suite))]).toEqual([suite, true]);
    const others = ['test/import-rules.spec.ts', 'test/cluster/leases.spec.ts', 'test/config/load-config.spec.ts'];
    const context = { config: { cache: false, id: 'order', cacheDirectory: '/nonexistent' }, hasteFS: { getSize: (path: string) => statSync(path).size } };
    const tests: FakeTest[] = [...others, ...long].map((suite) => ({ path: join(ROOT, suite), context }));
    const sorted = (new Sequencer().sort(tests) as FakeTest[]).map((t) => t.path.slice(ROOT.length + 1));
    expect(sorted.slice(0, long.length)).toEqual(long);
    // the rest by jest's rule without a cache: the bigger file first
    const rest = sorted.slice(long.length);
    expect(rest).toEqual([...others].sort((a, b) => statSync(join(ROOT, b)).size - statSync(join(ROOT, a)).size));
  });
});
