import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// plain JavaScript: it runs before anything is compiled
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isStale } = require('../../scripts/build-if-stale.js') as { isStale: (root: string) => boolean };

/** `npm run cli` compiles only when dist/ is older than a source (scripts/build-if-stale.js). */
describe('build-if-stale', () => {
  let root: string;
  const touch = (path: string, secondsAgo: number) => {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
    const at = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(file, at, at);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
    touch('src/main.ts', 100);
    touch('connectors/spreadsheet/index.ts', 100);
    touch('tsconfig.json', 100);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is stale without a build, fresh after one', () => {
    expect(isStale(root)).toBe(true);
    touch('dist/.tsbuildinfo', 50);
    expect(isStale(root)).toBe(false);
  });

  it('is stale when a source, a connector or a tsconfig changed after the build', () => {
    touch('dist/.tsbuildinfo', 50);
    touch('src/cli/program.ts', 10);
    expect(isStale(root)).toBe(true);
    touch('dist/.tsbuildinfo', 5);
    touch('connectors/generic-crm/presets/amocrm.yaml', 1);
    expect(isStale(root)).toBe(true);
    touch('dist/.tsbuildinfo', 0);
    expect(isStale(root)).toBe(false);
    touch('tsconfig.build.json', -5);
    expect(isStale(root)).toBe(true);
  });

  it('ignores what runs write (bench results and work folders)', () => {
    touch('dist/.tsbuildinfo', 50);
    touch('bench/results/latest.json', 1);
    touch('bench/work/db.sqlite', 1);
    expect(isStale(root)).toBe(false);
  });
});
