import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { BUILT_IN_CONNECTORS } from '../../src/connectors/plugin-loader';

const ROOT = resolve(__dirname, '../..');
const TSC = require.resolve('typescript/bin/tsc');

/**
 * `npm start` builds with tsconfig.build.json: the built-in connectors are type-checked, a plugin dropped
 * into connectors/ is not (the loader transpiles it at start-up), so its type errors cannot stop the build.
 * Checked with the project's own tsconfig files on a small tree of the same shape.
 */
describe('the build (tsconfig.build.json)', () => {
  let dir: string;
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  const tsc = (...args: string[]) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.build.json'), ...args], { encoding: 'utf8', timeout: 30_000 }) };
    } catch (error) {
      return { code: (error as { status: number }).status, out: String((error as { stdout: string }).stdout) };
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-sync-build-'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    copyFileSync(join(ROOT, 'tsconfig.build.json'), join(dir, 'tsconfig.build.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    write('src/connector.ts', 'export const defineConnector = <T>(definition: T): T => definition;\n');
    for (const name of ['generic-crm', 'spreadsheet', 'example-custom']) {
      write(`connectors/${name}/index.ts`, "import { defineConnector } from 'tracker-sync/connector';\nexport default defineConnector({ name: 1 });\n");
    }
    write('connectors/dropped-crm/index.ts', "const pageSize: number = 'fifty';\nexport default { name: 'dropped-crm', pageSize };\n");
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles the built-ins and src, and leaves a dropped-in plugin to the loader', () => {
    const listed = tsc('--listFilesOnly').out.split('\n').filter((file) => file.startsWith(dir));
    expect(listed.map((file) => file.slice(dir.length + 1)).sort()).toEqual([
      'connectors/example-custom/index.ts',
      'connectors/generic-crm/index.ts',
      'connectors/spreadsheet/index.ts',
      'src/connector.ts',
    ]);
  });

  it('compiles exactly the connectors the loader takes from dist/ (older builds may have left others there)', () => {
    const include: string[] = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')).include;
    const compiled = include.filter((pattern) => pattern.startsWith('connectors/')).map((pattern) => pattern.split('/')[1]);
    expect(compiled.sort()).toEqual([...BUILT_IN_CONNECTORS].sort());
  });

  it("passes despite the dropped-in plugin's type error, and fails on a built-in's", () => {
    expect(tsc('--noEmit')).toEqual({ code: 0, out: '' });
    write('connectors/example-custom/index.ts', "const pageSize: number = 'fifty';\nexport default pageSize;\n");
    const failed = tsc('--noEmit');
    expect(failed.code).not.toBe(0);
    expect(failed.out).toContain("connectors/example-custom/index.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.");
  });
});
