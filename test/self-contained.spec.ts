import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm test` must pass in a clone with nothing beside it: no test, script or build step reads outside the
 * repository. The specification the project was built from sits beside it on the author's machine, so
 * any path into that folder is the telltale.
 */
const ROOT = resolve(__dirname, '..');
const BESIDE = ['..', 'shared'].join('/'); // split so that this file does not match itself
const CHECKED = ['src', 'test', 'bench', 'connectors', 'config', '.ci', 'package.json', 'jest.config.js', 'tsconfig.json', 'tsconfig.build.json'];

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--', ...CHECKED], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\0').filter((f) => f !== '' && !/\.(png|jpe?g|xlsx|xls|sqlite|gz|zip)$/.test(f));
}

describe('the repository is self-contained', () => {
  it('no source, test, script or config file reaches for a folder beside the repository', () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) => {
      const text = readFileSync(join(ROOT, f), 'utf8');
      return text.includes(BESIDE) || text.includes(`shared${'/'}seeds`);
    });
    expect(offenders).toEqual([]);
  });
});
