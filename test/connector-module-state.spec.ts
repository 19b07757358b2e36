import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * Built-in connectors keep no per-connection state at module level (docs/architecture.md, "Connector sessions"):
 * what a run keeps (a token, a rate limiter, keep-alive agents, scans ahead) lives in the session the connector's
 * `open` returns, and ends with its `close`. Read with the TypeScript parser: a module-level `let`/`var`, a
 * module-level or static `new Map`/`WeakMap` (or an empty `new Set`/`WeakSet`, made to be filled) is named with
 * its file and line, unless listed below with its reason.
 */
const ROOT = resolve(__dirname, '..');
const FOLDER = 'connectors';

/** `file:name` (or `file:*` for every `let` of the file) → why it is no per-connection state. */
const ALLOWED: Record<string, string> = {
  'connectors/generic-crm/templates.ts:expressions': 'compiled JSONata expressions by their text: a memo of static input',
  'connectors/generic-crm/discovery/catalog.ts:expressions': 'compiled JSONata expressions by their text: a memo of static input',
  'connectors/generic-crm/records/status-map.ts:compiled': 'a status_map compiled once per settings object (weak: it goes with the settings)',
  'connectors/generic-crm/definition/presets.ts:cache': 'the preset files shipped with the connector, parsed once',
  'connectors/spreadsheet/values/dates.ts:*': 'scratch registers of the synchronous date parser (hot path): set and read within one call',
  'connectors/spreadsheet/values/row-hash.ts:*': 'scratch registers of the synchronous row hash (hot path): set and read within one call',
};

interface StateSite {
  file: string;
  line: number;
  name: string;
  kind: string;
}

const FILLED_LATER = new Set(['Map', 'WeakMap']);
const EMPTY_ONLY = new Set(['Set', 'WeakSet']);

/** A `new Map(...)`-like expression that holds state: a Map or WeakMap, or a Set made empty. */
function collectionMade(node: ts.Expression | undefined): string | null {
  if (!node || !ts.isNewExpression(node) || !ts.isIdentifier(node.expression)) return null;
  const kind = node.expression.text;
  if (FILLED_LATER.has(kind)) return `new ${kind}`;
  if (EMPTY_ONLY.has(kind) && (node.arguments?.length ?? 0) === 0) return `new ${kind} (empty)`;
  return null;
}

function stateOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): StateSite[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const sites: StateSite[] = [];
  const add = (node: ts.Node, name: string, kind: string) =>
    sites.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, name, kind });
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const list = statement.declarationList;
      const mutable = !(list.flags & ts.NodeFlags.Const);
      for (const declaration of list.declarations) {
        const name = declaration.name.getText(source);
        const made = collectionMade(declaration.initializer);
        if (mutable) add(declaration, name, list.flags & ts.NodeFlags.Let ? 'let' : 'var');
        else if (made) add(declaration, name, made);
      }
    } else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic = ts.canHaveModifiers(member) && ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (!isStatic || !ts.isPropertyDeclaration(member)) continue;
        const made = collectionMade(member.initializer);
        if (made) add(member, `${statement.name?.text ?? 'class'}.${member.name.getText(source)}`, `static ${made}`);
      }
    }
  }
  return sites;
}

function allowed(site: StateSite): boolean {
  return `${site.file}:${site.name}` in ALLOWED || (site.kind === 'let' && `${site.file}:*` in ALLOWED);
}

function connectorFiles(): string[] {
  return readdirSync(join(ROOT, FOLDER), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.split(/[\\/]/).includes('node_modules'))
    .map((f) => `${FOLDER}/${f.split('\\').join('/')}`);
}

describe('built-in connectors keep no per-connection state at module level (a session holds it)', () => {
  it('no module-level let, Map, WeakMap or empty Set in connectors/ but the listed memos', () => {
    const found = connectorFiles().flatMap((file) => stateOf(file)).filter((site) => !allowed(site));
    expect(found.map((s) => `${s.file}:${s.line} ${s.kind} ${s.name}`)).toEqual([]);
  });

  it('every allowance still names something that is there (a stale entry is removed)', () => {
    const sites = connectorFiles().flatMap((file) => stateOf(file));
    const stale = Object.keys(ALLOWED).filter((key) => {
      const [file, name] = key.split(':');
      return !sites.some((site) => site.file === file && (name === '*' ? site.kind === 'let' : site.name === name));
    });
    expect(stale).toEqual([]);
  });

  it('sees the state a connector used to keep, and lets constants alone', () => {
    const text = [
      "import Bottleneck from 'bottleneck';",
      'const byConnection = new Map<string, Bottleneck>();',
      'const compiled = new WeakMap<object, string>();',
      'let token: string | null = null;',
      'var legacy = 1;',
      'const seen = new Set<string>();',
      "const STATUSES = new Set(['0', '1']);",
      'const LIMIT = 4;',
      'export class Cache { static entries = new Map<string, string>(); entries = new Map<string, string>(); }',
      'function inside() { const local = new Map(); let x = 0; return [local, x]; }',
    ].join('\n');
    expect(stateOf('connectors/example/state.ts', text).map((s) => [s.line, s.kind, s.name])).toEqual([
      [2, 'new Map', 'byConnection'],
      [3, 'new WeakMap', 'compiled'],
      [4, 'let', 'token'],
      [5, 'var', 'legacy'],
      [6, 'new Set (empty)', 'seen'],
      [9, 'static new Map', 'Cache.entries'],
    ]);
  });
});
