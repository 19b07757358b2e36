import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { sourceRoot } from '../../connectors/plugin-loader';
import { PROJECT_ROOT } from '../../connectors/plugin-resolution';
import type { CliOutput } from '../output/cli-output';

/**
 * `new-connector <name> [--dir D]`: copies the template plugin (connectors/example-custom) to
 * connectors/<name> or D/<name> with its name replaced, never over an existing folder, and says what
 * to do next. Needs no config: nothing is booted.
 */

const TEMPLATE = 'example-custom';
const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export interface NewConnectorOptions {
  dir?: string;
}

/** `base` is where relative paths start: the user's shell folder (npm run moves to the package root). */
export function newConnectorCommand(out: CliOutput, name: string, options: NewConnectorOptions, base = process.env.INIT_CWD ?? process.cwd()): number {
  if (!NAME.test(name)) {
    out.error(`new-connector: "${name}" is not a connector name: use lower-case letters, digits and dashes, starting with a letter (e.g. my-crm)`);
    return 1;
  }
  const parent = options.dir ? resolve(base, options.dir) : sourceRoot();
  const target = join(parent, name);
  const taken = [target, join(sourceRoot(), name)].find((folder) => existsSync(folder));
  if (taken) {
    out.error(`new-connector: ${shown(taken, base)} already exists: nothing was written (choose another name, or remove the folder)`);
    return 1;
  }

  const template = join(sourceRoot(), TEMPLATE);
  const files = readdirSync(template).filter((file) => file.endsWith('.ts'));
  mkdirSync(target, { recursive: true });
  for (const file of files) writeFileSync(join(target, file), renamed(readFileSync(join(template, file), 'utf8'), name));
  writeFileSync(join(target, 'tsconfig.json'), pluginTsconfig(target));

  const folder = shown(target, base);
  out.line(`created ${folder}/ from the ${TEMPLATE} template: ${[...files, 'tsconfig.json'].join(', ')}`);
  out.line('');
  out.line('Next:');
  out.line(`1. Adapt it to your source: settings.ts (what a connection configures), records.ts (a source record ->`);
  out.line(`   canonical records), index.ts (streams, check, read). The contract: connectors/README.md.`);
  out.line(`2. Type-check it (the daemon only transpiles plugins): npx tsc -p ${folder}`);
  out.line('3. Add the connection to your config (config/tracker-sync.yaml by default; merge with the keys already there):');
  out.line('');
  for (const line of configSnippet(name, parent)) out.line(`   ${line}`);
  out.line('');
  out.line(`4. Try it: npm run cli -- check ${name}, then npm run cli -- preview ${name}, then npm run cli -- sync ${name}`);
  return 0;
}

/** The template's name in every spelling: the connector name, and the PascalCase of its classes. */
function renamed(source: string, name: string): string {
  const pascal = name.replace(/(^|-)([a-z0-9])/g, (_match, _dash, letter: string) => letter.toUpperCase());
  return source
    .replaceAll(' (template for custom connectors)', '')
    .replaceAll(TEMPLATE, name)
    .replaceAll('ExampleCustom', pascal);
}

/** Lets `tsc -p <folder>` and editors check the plugin wherever it lives, against this installation. */
function pluginTsconfig(target: string): string {
  const project = relative(target, PROJECT_ROOT) || '.';
  const config = {
    extends: `${project}/tsconfig.json`,
    compilerOptions: {
      noEmit: true,
      incremental: false,
      // the plugin and this installation's src/ are both its sources, wherever the plugin lives
      rootDir: relative(target, '/') || '.',
      types: ['node'],
      typeRoots: [`${project}/node_modules/@types`],
      paths: { 'tracker-sync/connector': ['src/connector.ts'], '*': ['node_modules/*', 'node_modules/@types/*'] },
    },
    include: ['**/*.ts'],
    exclude: ['node_modules'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function configSnippet(name: string, parent: string): string[] {
  const paths = parent === sourceRoot() ? [] : [`connector_paths: [${JSON.stringify(parent)}]`];
  return [
    ...paths,
    'connections:',
    `  - id: ${name}`,
    `    connector: ${name}`,
    '    schedule: "*/10 * * * *"',
    '    settings:',
    `      path: ./exports/${name}.jsonl     # the template reads a JSON-lines file: replace with your settings`,
  ];
}

/** Relative to where the user is when inside it, else absolute. */
function shown(folder: string, base: string): string {
  const path = relative(base, folder);
  return path && !path.startsWith('..') && !isAbsolute(path) ? path : folder;
}
