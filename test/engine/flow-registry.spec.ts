import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';
import { OUTBOUND_FLOW_IMPLEMENTATIONS, OUTBOUND_FLOW_NAMES, OUTBOUND_FLOWS, zeroFlowCounters } from '../../src/engine/outbound/flows/registry';

/**
 * One flow, one folder (issue 40): each folder under src/engine/outbound/flows/ is a flow that describes itself
 * (`<folder>.description.ts`, handed to the registry by its index.ts with its code), registered by one line, and
 * named nowhere else. That its description imports at most a type: test/import-rules.spec.ts.
 */
const ROOT = resolve(__dirname, '../..');
const FLOWS_DIR = 'src/engine/outbound/flows';
const folders = readdirSync(join(ROOT, FLOWS_DIR)).filter((name) => statSync(join(ROOT, FLOWS_DIR, name)).isDirectory()).sort();
/** Each folder's index, as the registry imports it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const indexOf = (folder: string) => require(join(ROOT, FLOWS_DIR, folder)) as { description?: { name: string }; flow?: { name: string } };

/** The flows whose names were public before the registry, kept as aliases (routes, commands, the run answers' `write_back` key): they are named outside their folders on purpose. */
const ALIASED = ['write_back', 'leads'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => `${folder}/${f.split('\\').join('/')}`);
}

/** The string literals and identifiers of a file (its comments aside). */
function wordsOf(file: string): Set<string> {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const words = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isIdentifier(node)) words.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return words;
}

describe('outbound flows: one folder each, registered by one line', () => {
  it('registers every folder under flows/, each with its description and its code under one name', () => {
    const described = folders.map((folder) => {
      const entry = indexOf(folder);
      expect(existsSync(join(ROOT, FLOWS_DIR, folder, `${folder}.description.ts`))).toBe(true);
      expect(entry.flow?.name).toBe(entry.description?.name);
      expect(OUTBOUND_FLOWS[entry.description!.name as keyof typeof OUTBOUND_FLOWS]).toBe(entry.description);
      expect(OUTBOUND_FLOW_IMPLEMENTATIONS[entry.flow!.name as keyof typeof OUTBOUND_FLOW_IMPLEMENTATIONS]).toBe(entry.flow);
      return entry.description!.name;
    });
    expect([...OUTBOUND_FLOW_NAMES].sort()).toEqual(described.sort());
  });

  it.each(OUTBOUND_FLOW_NAMES)("%s: counts in counters its description names, and has a metric of its own", (name) => {
    const { counters, metric, title } = OUTBOUND_FLOWS[name];
    const { counting } = OUTBOUND_FLOW_IMPLEMENTATIONS[name];
    expect(title).not.toBe('');
    expect(Object.keys(counters).length).toBeGreaterThan(0);
    for (const counter of Object.values(counting)) expect(Object.keys(zeroFlowCounters(name))).toContain(counter);
    expect(metric.name).toMatch(/^tracker_sync_\w+_total$/);
    expect(OUTBOUND_FLOW_NAMES.filter((other) => OUTBOUND_FLOWS[other].metric.name === metric.name)).toEqual([name]);
  });

  it("words each flow once: its counters' meanings and its metric are written in its description alone", () => {
    const literals = new Map(sourceFiles('src').map((file) => [file, wordsOf(file)]));
    for (const name of OUTBOUND_FLOW_NAMES) {
      const { counters, metric } = OUTBOUND_FLOWS[name];
      for (const words of [metric.name, ...Object.values(counters)]) {
        const files = [...literals].filter(([, found]) => found.has(words)).map(([file]) => file);
        expect({ words, files }).toEqual({ words, files: [expect.stringMatching(new RegExp(`^${FLOWS_DIR}/[^/]+/[^/]+\\.description\\.ts$`))] });
      }
    }
  });

  it('names a flow without an alias nowhere outside its folder but in the CLI\'s words for its dry run', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('connectors/generic-crm').filter((f) => !f.includes('/node_modules/'))];
    const cliWords = (folder: string) => [`src/cli/output/${folder}.format.ts`, 'src/cli/output/flow-preview.format.ts'];
    const newer = folders.filter((folder) => !ALIASED.includes(indexOf(folder).description!.name));
    expect(newer.length).toBeGreaterThan(0);
    for (const folder of newer) {
      const name = indexOf(folder).description!.name;
      const naming = files
        .filter((file) => !file.startsWith(`${FLOWS_DIR}/${folder}/`) && !cliWords(folder).includes(file))
        .filter((file) => wordsOf(file).has(name));
      expect({ name, naming }).toEqual({ name, naming: [] });
    }
  });
});
