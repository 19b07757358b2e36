import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The import rules of docs/architecture.md, read from the source with the TypeScript parser: every
 * `import`, `export … from`, `require()` and `import()` of a file under `from` that lands in a forbidden
 * folder is named with its file and line. A rule's `allowed` lists the exceptions, each with its reason.
 */
const ROOT = resolve(__dirname, '..');

interface Rule {
  name: string;
  /** folders (relative to the repository) whose files are checked */
  from: string[];
  /** folders inside `from` whose files are not checked */
  except?: string[];
  /** folders or files those files must not import */
  forbidden: string[];
  /** imports that are fine even so (`specifier`: the module as the file writes it) */
  allowed?: (target: string, typeOnly: boolean, specifier: string) => boolean;
  /** when given, only imports of a name it matches break the rule (the names a file imports, as exported) */
  names?: RegExp;
  /** when given, an import (not type-only) breaks the rule only when it takes a name this does not match */
  allowedNames?: RegExp;
}

/** Packages are named `package:<name>`; the folder `package:` holds them all. */
const PACKAGES = 'package:';
const under = (path: string, folder: string) =>
  path === folder || path.startsWith(folder === PACKAGES ? folder : `${folder}/`);
const DAEMON = ['src'];
/** The add-orders field rules, shared by the client's checks and the sandbox's validation. */
const ADD_ORDERS_RULES = 'src/tracker/add-orders-rules';
/** HTTP helpers shared by the tracker client and the connectors (retries and backoff). */
const HTTP = 'src/http';
/** The store's TypeORM entity classes are named `<Table>Entity`. */
const ENTITY_NAME = /Entity$/;
/** The faces of the daemon: they call the application layer (src/application), which calls the engine. */
const FACES = ['src/admin', 'src/cli', 'src/status-page', 'src/webhooks'];
/** Of the engine's index, the faces may take its types (type-only), its errors and its Nest module. */
const ENGINE_NAMES_FOR_FACES = /^(\w+Error|EngineModule)$/;

/** Each outbound flow's description, beside its code (src/engine/outbound/flows/<flow>/<flow>.description.ts). */
const FLOW_DESCRIPTIONS = readdirSync(join(ROOT, 'src/engine/outbound/flows'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.description.ts'))
  .map((f) => `src/engine/outbound/flows/${f.split('\\').join('/')}`);

const RULES: Rule[] = [
  {
    name: 'the sandbox is a twin of the service that could ship alone: of the daemon it reads only the service types and the add-orders rules',
    from: ['src/sandbox'],
    forbidden: DAEMON,
    allowed: (target, typeOnly) =>
      under(target, 'src/sandbox') || (typeOnly && under(target, 'src/tracker/types')) || target === ADD_ORDERS_RULES,
  },
  {
    name: 'the add-orders rules, which the sandbox runs, are a pure leaf: they import nothing (no Nest, no axios, no store)',
    from: [`${ADD_ORDERS_RULES}.ts`],
    forbidden: ['src', 'connectors', PACKAGES],
  },
  {
    name: 'the connector contract is the SDK: built-in connectors import of the daemon only tracker-sync/connector, as plugins do',
    from: ['connectors'],
    forbidden: DAEMON,
    allowed: (_target, _typeOnly, specifier) => specifier === 'tracker-sync/connector',
  },
  {
    name: 'connectors yield canonical records; only the engine builds service payloads',
    from: ['src/connectors', 'connectors'],
    forbidden: ['src/tracker'],
  },
  {
    name: 'the tracker client is a stateless leaf: of the daemon it reads only the shared HTTP retry policy',
    from: ['src/tracker'],
    forbidden: DAEMON,
    allowed: (target) => under(target, 'src/tracker') || under(target, HTTP),
  },
  {
    name: 'the shared HTTP retry policy, which the tracker client and the connectors run, is a pure leaf: it imports nothing',
    from: [HTTP],
    forbidden: ['src', 'connectors', PACKAGES],
  },
  {
    name: 'the engine does not know who triggers it, nor who listens to its runs (alerts)',
    from: ['src/engine'],
    forbidden: ['src/admin', 'src/application', 'src/cli', 'src/status-page', 'src/scheduler', 'src/alerts'],
  },
  {
    name: "a flow's description (name, words, counters, metric) is pure data, read by the store's types and the faces through the registry: it imports at most a type",
    from: FLOW_DESCRIPTIONS,
    forbidden: ['src', 'connectors', PACKAGES],
    allowed: (_target, typeOnly) => typeOnly,
  },
  {
    name: 'the engine reads top to bottom: a stream\'s mapping (src/engine/mappings) imports nothing else of the engine',
    from: ['src/engine/mappings'],
    forbidden: ['src/engine'],
    allowed: (target) => under(target, 'src/engine/mappings'),
  },
  {
    name: 'the application layer reaches the scheduler as its ScheduleControl, never by import: the scheduler imports the trigger path',
    from: ['src/application'],
    forbidden: ['src/scheduler'],
  },
  {
    name: 'the application layer (shared by the admin API and the CLI) knows neither of them, nor the status page',
    from: ['src/application'],
    forbidden: ['src/admin', 'src/cli', 'src/status-page'],
  },
  {
    name: 'alerts and the admin API form no folder cycle: alerts import nothing of src/admin (the admin API shows alerts)',
    from: ['src/alerts'],
    forbidden: ['src/admin'],
  },
  {
    name: 'the secret scrubber is a leaf that alerts, discovery, the application layer and the admin API share: of the daemon it reads only the config and the forms a server echoes a secret in (src/http)',
    from: ['src/secrets'],
    forbidden: DAEMON,
    allowed: (target) => under(target, 'src/secrets') || under(target, 'src/config') || under(target, HTTP),
  },
  {
    name: 'the faces (admin API, CLI, status page, webhooks) reach the engine through its index only (src/engine/index.ts)',
    from: FACES,
    forbidden: ['src/engine'],
    allowed: (target) => target === 'src/engine',
  },
  {
    name: 'the faces use no engine service (SyncService, ConnectionsService, …): of the engine they take its types, its errors and EngineModule; the rest comes from src/application',
    from: FACES,
    forbidden: ['src/engine'],
    allowedNames: ENGINE_NAMES_FOR_FACES,
  },
  {
    name: 'the faces import nothing of the connectors (connectors/): what they need of a connector comes from the registry (src/connectors) or the application',
    from: FACES,
    forbidden: ['connectors'],
  },
  {
    name: 'the CLI answers from the application layer, not from the admin API',
    from: ['src/cli'],
    forbidden: ['src/admin'],
  },
  {
    name: 'only the store touches the database: typeorm is imported in src/store and src/sandbox (its own store) alone',
    from: ['src', 'connectors'],
    except: ['src/store', 'src/sandbox'],
    forbidden: [`${PACKAGES}typeorm`],
  },
  {
    name: 'the store hands out plain rows (src/store/records.ts): its entities are its own wiring, nothing outside it imports src/store/entities',
    from: ['src', 'connectors', 'bench'],
    except: ['src/store', 'src/sandbox'],
    forbidden: ['src/store/entities'],
  },
  {
    name: 'no entity class leaves the store: nothing outside it imports a *Entity name from src/store',
    from: ['src', 'connectors', 'bench'],
    except: ['src/store', 'src/sandbox'],
    forbidden: ['src/store'],
    names: ENTITY_NAME,
  },
  {
    name: 'the store holds data, not logic',
    from: ['src/store'],
    forbidden: ['src/engine'],
  },
  {
    name: 'the store imports no pacing logic: the request budget paces in src/budget (the store keeps its rows), the limits are the tracker client\'s',
    from: ['src/store'],
    forbidden: ['src/budget', 'src/tracker/http'],
  },
];

interface ImportSite {
  file: string;
  line: number;
  /** the module as the file writes it */
  specifier: string;
  target: string;
  typeOnly: boolean;
  /** the names imported or re-exported, as the target exports them; `*` for all of them (a namespace, `export *`, require) */
  names: string[];
}

function sourceFiles(folder: string): string[] {
  if (folder.endsWith('.ts')) return [folder];
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => `${folder}/${f.split('\\').join('/')}`);
}

/** Repository-relative path of a relative or aliased module specifier, without extension; `package:<name>` else. */
function resolveTarget(file: string, specifier: string): string {
  if (specifier === 'tracker-sync/connector') return 'src/connector';
  if (!specifier.startsWith('.')) return `${PACKAGES}${specifier}`;
  return relative(ROOT, resolve(ROOT, dirname(file), specifier)).split('\\').join('/').replace(/\.(ts|js)$/, '');
}

function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): ImportSite[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const sites: ImportSite[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean, names: string[] = ['*']) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const target = resolveTarget(file, specifier.text);
    sites.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, specifier: specifier.text, target, typeOnly, names });
  };
  const exported = (e: ts.ImportSpecifier | ts.ExportSpecifier) => (e.propertyName ?? e.name).text;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      add(node, node.moduleSpecifier, isTypeOnlyImport(node), importedNames(node.importClause));
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node, node.moduleSpecifier, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)), named ? named.map(exported) : ['*']);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg)) add(node, arg.literal as ts.Expression, true, node.qualifier ? [node.qualifier.getText().split('.')[0]] : ['*']);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isRequire || node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

/** The names an import takes (`default` for a default import, `*` for a namespace); none for `import 'x'`. */
function importedNames(clause: ts.ImportClause | undefined): string[] {
  if (!clause) return [];
  const names = clause.name ? ['default'] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
  else if (bindings) names.push(...bindings.elements.map((e) => (e.propertyName ?? e.name).text));
  return names;
}

/** `import type {…}`, or `import {type A, type B}` where every name is a type (erased from the output). */
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** Whether this import breaks the rule (its file being one the rule checks). */
function breaks(rule: Rule, site: ImportSite): boolean {
  if (!rule.forbidden.some((folder) => under(site.target, folder))) return false;
  if (rule.allowed?.(site.target, site.typeOnly, site.specifier)) return false;
  if (rule.allowedNames && (site.typeOnly || site.names.every((name) => rule.allowedNames!.test(name)))) return false;
  return !rule.names || site.names.some((name) => rule.names!.test(name));
}

function violations(rule: Rule): string[] {
  const named = (site: ImportSite) => (rule.names ? `${site.names.filter((n) => rule.names!.test(n)).join(', ')} from ` : '');
  return rule.from
    .flatMap(sourceFiles)
    .filter((file) => !rule.except?.some((folder) => under(file, folder)))
    .flatMap((file) => importsOf(file))
    .filter((site) => breaks(rule, site))
    .map((site) => `${site.file}:${site.line} imports ${named(site)}${site.target}${site.typeOnly ? ' (type only)' : ''}`);
}

describe('import rules (docs/architecture.md)', () => {
  it.each(RULES.map((rule) => [rule.name, rule] as const))('%s', (_name, rule) => {
    expect(violations(rule)).toEqual([]);
  });

  it('sees every kind of import, and tells type-only ones apart', () => {
    const text = [
      "import type { Visit } from '../../tracker/types/visits.types';",
      "import { type Order, ADD_ORDERS_COUNTERS } from '../../tracker/types/orders.types';",
      "export type { Lead } from '../../tracker/types/leads.types';",
      "export * from '../../engine';",
      "const store = require('../../store');",
      "void import('../../admin');",
      "let client: import('../../tracker/tracker-client').TrackerClient;",
      "import { Injectable } from '@nestjs/common';",
    ].join('\n');
    const sites = importsOf('src/sandbox/orders/example.ts', text).map((s) => [s.line, s.target, s.typeOnly]);
    expect(sites).toEqual([
      [1, 'src/tracker/types/visits.types', true],
      [2, 'src/tracker/types/orders.types', false],
      [3, 'src/tracker/types/leads.types', true],
      [4, 'src/engine', false],
      [5, 'src/store', false],
      [6, 'src/admin', false],
      [7, 'src/tracker/tracker-client', true],
      [8, 'package:@nestjs/common', false],
    ]);
    const sandbox = RULES[0];
    expect(sandbox.allowed!('src/tracker/types/orders.types', true, '')).toBe(true);
    expect(sandbox.allowed!('src/tracker/types/orders.types', false, '')).toBe(false);
    expect(sandbox.allowed!('src/tracker/tracker-client', true, '')).toBe(false);
    expect(sandbox.allowed!(ADD_ORDERS_RULES, false, '')).toBe(true);
    expect(sandbox.allowed!('src/tracker/payload-checks', false, '')).toBe(false);
  });

  it('tells the names a file imports, so that no entity class leaves the store', () => {
    const text = [
      "import { RunRow, RunStore } from '../../store';",
      "import type { RunEntity as Run } from '../../store';",
      "import { ConnectionRow } from '../../store/records';",
      "import { DaemonEntity } from '../../store/entities/daemon.entity';",
      "export { CursorEntity } from '../../store';",
      "let run: import('../../store').RunEntity;",
      "import * as store from '../../store';",
    ].join('\n');
    const sites = importsOf('src/application/runs/example.ts', text);
    expect(sites.map((s) => s.names)).toEqual([['RunRow', 'RunStore'], ['RunEntity'], ['ConnectionRow'], ['DaemonEntity'], ['CursorEntity'], ['RunEntity'], ['*']]);
    const entities = RULES.find((rule) => rule.forbidden.includes('src/store/entities'))!;
    const entityNames = RULES.find((rule) => rule.names === ENTITY_NAME)!;
    expect(sites.filter((site) => breaks(entities, site) || breaks(entityNames, site)).map((site) => site.line)).toEqual([2, 4, 5, 6]);
  });

  it('lets a face take the engine\'s types, errors and module from its index, and nothing else of it', () => {
    const text = [
      "import { RunInProgressError, UnknownConnectionError } from '../../engine';",
      "import type { ProgressEvent, SyncService } from '../../engine';",
      "import { EngineModule } from '../../engine';",
      "import { SyncService } from '../../engine';",
      "import { PreviewResult, InvalidRunOptionsError } from '../../engine';",
      "import type { LeadsPreview } from '../../engine/outbound/flows/leads/leads.flow';",
      "import { PRESET_NAMES } from '../../../connectors/generic-crm/settings';",
      "import { ConnectorRegistry } from '../../connectors/connector-registry';",
    ].join('\n');
    const sites = importsOf('src/cli/commands/example.ts', text);
    const faces = RULES.filter((rule) => rule.from === FACES);
    expect(sites.filter((site) => faces.some((rule) => breaks(rule, site))).map((site) => site.line)).toEqual([4, 5, 6, 7]);
  });

  it('lets a built-in connector reach the daemon only as tracker-sync/connector', () => {
    const text = ["import { defineConnector } from 'tracker-sync/connector';", "import { Page } from '../../src/connector';"].join('\n');
    const sites = importsOf('connectors/generic-crm/example.ts', text);
    const sdk = RULES.find((rule) => rule.from.length === 1 && rule.from[0] === 'connectors' && rule.forbidden === DAEMON)!;
    expect(sites.map((site) => site.target)).toEqual(['src/connector', 'src/connector']);
    expect(sites.filter((site) => breaks(sdk, site)).map((site) => site.line)).toEqual([2]);
  });
});

/** Import cycles among the files of `folder` (type-only imports count too), each as `a → b → … → a`. */
function cyclesIn(folder: string): string[] {
  const files = new Set(sourceFiles(folder).map((f) => f.replace(/\.ts$/, '')));
  const moduleOf = (target: string) => (files.has(target) ? target : files.has(`${target}/index`) ? `${target}/index` : null);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(`${file}.ts`).map((site) => moduleOf(site.target));
    edges.set(file, [...new Set(targets.filter((t): t is string => t !== null))]);
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...files].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('no import cycles (docs/architecture.md)', () => {
  it('src/engine reads top to bottom: no file imports one that imports it back', () => {
    expect(cyclesIn('src/engine')).toEqual([]);
  });
});

/**
 * The folder graph of `root`: an import from a file of folder A to a file of its sibling folder B (the two
 * folders just under the deepest folder both files share) is an edge A → B. A folder's own files (its top) may
 * import its subfolders and be imported by them; between siblings imports go one way. Each edge keeps its
 * first import as `file:line`.
 */
function folderEdges(sources: string[], read: (file: string) => ImportSite[] = (file) => importsOf(file)): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  const files = new Set(sources.map((f) => f.replace(/\.ts$/, '')));
  const moduleOf = (target: string) => (files.has(target) ? target : files.has(`${target}/index`) ? `${target}/index` : null);
  for (const file of [...files].sort()) {
    for (const site of read(`${file}.ts`)) {
      const target = moduleOf(site.target);
      if (!target) continue;
      const a = file.split('/');
      const b = target.split('/');
      let shared = 0;
      while (shared < a.length - 1 && shared < b.length - 1 && a[shared] === b[shared]) shared++;
      // both files must sit in (different) subfolders of the folder they share
      if (shared >= a.length - 1 || shared >= b.length - 1) continue;
      const from = a.slice(0, shared + 1).join('/');
      const to = b.slice(0, shared + 1).join('/');
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${site.file}:${site.line}`);
    }
  }
  return edges;
}

/**
 * The folder cycles of `root`: each group of folders that import one another round (a strongly connected
 * component of the folder graph), as its folders and every import edge inside it with its first import line.
 */
function folderCycles(edges: Map<string, Map<string, string>>): string[] {
  const next = (folder: string) => [...(edges.get(folder)?.keys() ?? [])].sort();
  // Tarjan's strongly connected components
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const to of next(folder)) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(folder, Math.min(low.get(folder)!, index.get(to)!));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) visit(folder);
  return groups
    .map((group) => {
      const inside = group.flatMap((from) => next(from).filter((to) => group.includes(to)).map((to) => `${from} → ${to} (${edges.get(from)!.get(to)})`));
      return `${group.join(' ⇄ ')}: ${inside.join('; ')}`;
    })
    .sort();
}

describe('no folder cycles (docs/architecture.md)', () => {
  it('no folder of src/ imports a sibling folder that imports it back', () => {
    expect(folderCycles(folderEdges(sourceFiles('src')))).toEqual([]);
  });

  it("names each folder cycle with one import line per edge, and leaves a folder's own files out", () => {
    const texts: Record<string, string> = {
      'src/x/top.ts': "import { one } from './a/one';",
      'src/x/a/one.ts': "import { top } from '../top';\nimport { two } from '../b/two';",
      'src/x/b/two.ts': "import type { C } from '../c';",
      'src/x/c/index.ts': "export * from '../a/one';",
      'src/x/d/leaf.ts': "import { one } from '../a/one';",
      'src/x/d/deeper/more.ts': "import { leaf } from '../leaf';",
      'src/sandbox/visits/v.ts': "import { o } from '../orders/o';",
      'src/sandbox/orders/o.ts': "import { v } from '../visits/v';",
    };
    const edges = folderEdges(Object.keys(texts), (file) => importsOf(file, texts[file]));
    expect(folderCycles(edges)).toEqual([
      // the sandbox's visits and orders once imported one another (issue 40): such a pair is a cycle too
      'src/sandbox/orders ⇄ src/sandbox/visits: src/sandbox/orders → src/sandbox/visits (src/sandbox/orders/o.ts:1); src/sandbox/visits → src/sandbox/orders (src/sandbox/visits/v.ts:1)',
      'src/x/a ⇄ src/x/b ⇄ src/x/c: src/x/a → src/x/b (src/x/a/one.ts:2); src/x/b → src/x/c (src/x/b/two.ts:1); src/x/c → src/x/a (src/x/c/index.ts:1)',
    ]);
  });
});
