import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadConnectors } from '../../src/connectors/plugin-loader';

const ROOT = path.resolve(__dirname, '../..');

const definitionSource = (name: string) => `{
  name: '${name}',
  settingsClass: class Settings {},
  streams: () => [{ name: 'deals', incremental: false }],
  check: async () => ({ ok: true, message: 'ok' }),
  read: async function* () {},
}`;

/** A folder of plugin folders: two good ones and every way a plugin can be broken. */
function pluginFolder(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plugins-'));
  const write = (folder: string, file: string, text: string) => {
    fs.mkdirSync(path.join(root, folder), { recursive: true });
    fs.writeFileSync(path.join(root, folder, file), text);
  };
  write('good-ts', 'index.ts', `const definition = ${definitionSource('tmp-good')};\nexport default definition;\n`);
  write('named-js', 'index.js', `exports.connector = ${definitionSource('tmp-named')};\n`);
  // as a user writes one outside the repository: the contract by name, decorators from the daemon's class-validator
  write(
    'contract-ts',
    'index.ts',
    "import { IsString } from 'class-validator';\nimport { defineConnector } from 'tracker-sync/connector';\n" +
      "class Settings { @IsString() path!: string; }\nconst typeError: number = 'not checked';\n" +
      `export default defineConnector<Settings>(${definitionSource('tmp-contract').replace('class Settings {}', 'Settings')});\n`,
  );
  write('syntax-error', 'index.js', 'module.exports = {\n  name: "broken",\n');
  write('exports-nothing', 'index.js', 'module.exports = { hello: "world", name: 42 };\n');
  write('throws', 'index.js', 'throw new Error("boom while loading");\n');
  write('duplicate', 'index.js', `module.exports = ${definitionSource('generic-crm')};\n`);
  fs.mkdirSync(path.join(root, 'no-index'));
  return root;
}

describe('loadConnectors', () => {
  let folder: string;
  beforeAll(() => (folder = pluginFolder()));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('loads the built-ins and the good plugins, and reports each broken folder with its path and reason', async () => {
    const lines: string[] = [];
    const logger = { log: (m: string) => lines.push(m), warn: (m: string) => lines.push(`WARN ${m}`), error: (m: string) => lines.push(`ERROR ${m}`) };
    const registry = await loadConnectors([folder, path.join(folder, 'missing')], logger);
    const names = registry.names();
    expect(names).toEqual(expect.arrayContaining(['generic-crm', 'example-custom', 'tmp-contract', 'tmp-good', 'tmp-named']));
    expect(registry.validateSettings('tmp-contract', { path: 1 }, 'connections[0]')).toEqual(['connections[0].settings.path: must be a string']);
    const failures = Object.fromEntries(registry.failures.map((f) => [path.relative(folder, f.path), f.reason]));
    expect(failures).toMatchObject({
      'syntax-error': expect.stringMatching(/Unexpected end of input|SyntaxError|Unexpected token/),
      'exports-nothing': 'index.js exports no connector definition (expected an object with name, settingsClass, streams, check and read)',
      throws: 'boom while loading',
      duplicate: 'connector "generic-crm" is already registered',
      'no-index': 'no index.ts or index.js',
      missing: 'folder does not exist',
    });
    expect(lines.filter((l) => l.startsWith('ERROR'))).toHaveLength(registry.failures.filter((f) => !f.path.endsWith('missing')).length);
    expect(lines.join('\n')).toContain(`connector plugin ${path.join(folder, 'throws')} skipped: boom while loading`);
  });

  it('accepts a single plugin folder as a path', async () => {
    const registry = await loadConnectors([path.join(folder, 'good-ts')], { log: () => {}, warn: () => {} });
    expect(registry.get('tmp-good')).toBeDefined();
  });

  it('loads a TypeScript-only plugin under plain Node through the TypeScript hook (the contract and class-validator resolved), and reports a TS syntax error', () => {
    fs.mkdirSync(path.join(folder, 'ts-syntax'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'ts-syntax', 'index.ts'), 'export default { name: "x", ;\n');
    // Plain node (no ts-jest): bootstrap only the hook module by hand, then everything else goes through it.
    // Built-ins are left out to keep the test fast (each file is transpiled on the fly).
    const script = `
      const ts = require('typescript'); const fs = require('fs'); const path = require('path'); const Module = require('module');
      const file = ${JSON.stringify(path.join(ROOT, 'src/connectors/typescript-require-hook.ts'))};
      const js = ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
      const hook = new Module(file, module); hook.filename = file; hook.paths = Module._nodeModulePaths(path.dirname(file)); hook._compile(js, file);
      hook.exports.ensureTypeScriptHook();
      const { loadConnectors } = require(${JSON.stringify(path.join(ROOT, 'src/connectors/plugin-loader.ts'))});
      const quiet = { log() {}, warn() {}, error() {} };
      loadConnectors([${JSON.stringify(folder)}], quiet, { builtIns: false }).then((r) => console.log(JSON.stringify({
        names: r.names(), failures: r.failures, problems: r.validateSettings('tmp-contract', { path: 1 }, 'connections[0]'),
      })));
    `;
    const output = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 }));
    // without the built-ins the 'duplicate' folder's definition (named generic-crm) is not a duplicate
    expect(output.names).toEqual(['tmp-contract', 'generic-crm', 'tmp-good', 'tmp-named']);
    expect(output.problems).toEqual(['connections[0].settings.path: must be a string']);
    const tsFailure = output.failures.find((f: { path: string }) => f.path.endsWith('ts-syntax'));
    expect(tsFailure.reason).toMatch(/ts-syntax\/index\.ts:1:\d+: /);
  });
});
