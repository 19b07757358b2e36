import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { dirname } from 'path';
import { Document, isMap, isScalar, isSeq, Pair, parseDocument, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { ConfigError, validateConfig } from '../../config';
import type { SettingsValidator } from '../../config';
import { appendSection, applyEdit, atBlockEnd, blockText, columnOf, scalarText, TextEdit, topPair, underEmptyKey } from './yaml-text-edits';

/** Indent of a section's entries when init writes the section (or its first entry) itself. */
const INDENT = 2;

/**
 * The config file as text, edited by inserting text where the parsed document says (yaml-text-edits.ts): the
 * new connection goes after the last line of the `connections:` list, a `tracker:` value replaces only its
 * scalar, and every other byte of the file stays as it was (comments, their alignment, order). Each edit is
 * parsed again; nothing is written unless the new text loads.
 */
export class ConfigDocument {
  private constructor(
    readonly path: string,
    private source: string,
  ) {}

  static read(path: string): ConfigDocument {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const config = new ConfigDocument(path, text);
    const doc = config.doc;
    if (doc.errors.length > 0) throw new ConfigError(doc.errors.map((e) => e.message), path);
    if (doc.contents !== null && doc.contents !== undefined && !isMap(doc.contents)) {
      throw new ConfigError(['the file must be a mapping of sections (server:, tracker:, connections:, ...)'], path);
    }
    return config;
  }

  /** The file parsed now (a fresh Document each time: it also makes the nodes of a new connection). */
  get doc(): Document {
    return parseDocument(this.source);
  }

  hasConnection(id: string): boolean {
    const seq = topPair(this.source, 'connections')?.value;
    return isSeq(seq) && seq.items.some((item) => isMap(item) && item.get('id') === id);
  }

  /** `tracker:` keys set (the section created when absent), other keys of it kept. */
  setTracker(values: Record<string, string>): void {
    for (const [key, value] of Object.entries(values)) this.edit(this.trackerEdit(key, value));
  }

  /** The number of `projects.<name>` as written, or undefined: no such block. */
  projectNumber(name: string): string | undefined {
    const projects = topPair(this.source, 'projects')?.value;
    if (!isMap(projects)) return undefined;
    const block = projects.get(name, true);
    if (block === undefined) return undefined;
    return isMap(block) ? String(block.get('project') ?? '') : '';
  }

  /** Adds `projects.<name>` (the section created when absent), after the blocks already there. */
  addProject(name: string, values: Record<string, string>): void {
    const doc = new Document();
    const node = new YAMLMap();
    node.add(new Pair(doc.createNode(name), doc.createNode(values)));
    this.edit(this.projectEdit(node));
  }

  /** Appends a connection; `settingsPairs` go under its `settings:` after the plain ones (comments kept on them). */
  addConnection(connection: { id: string; connector: string; project?: string; schedule?: string; settings: Record<string, unknown> }, settingsPairs: Pair[] = []): void {
    const doc = new Document();
    const node = new YAMLMap();
    node.add(new Pair(doc.createNode('id'), doc.createNode(connection.id)));
    node.add(new Pair(doc.createNode('connector'), doc.createNode(connection.connector)));
    if (connection.project) node.add(new Pair(doc.createNode('project'), doc.createNode(connection.project)));
    if (connection.schedule) node.add(new Pair(doc.createNode('schedule'), doc.createNode(connection.schedule)));
    const settings = doc.createNode(connection.settings) as YAMLMap;
    for (const pair of settingsPairs) settings.add(pair);
    node.add(new Pair(doc.createNode('settings'), settings));
    this.edit(this.connectionEdit(node));
  }

  text(): string {
    return this.source;
  }

  /**
   * Validates the new text as the daemon would load it (connector settings included, `${NAME}` answered by
   * `env`), then writes it by rename. @throws ConfigError with every problem; the file is then untouched.
   */
  save(env: NodeJS.ProcessEnv, settingsValidator: SettingsValidator): void {
    const text = this.text();
    validateConfig(parseDocument(text).toJS(), { env, settingsValidator, file: this.path });
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.init-${process.pid}`;
    writeFileSync(temporary, text);
    renameSync(temporary, this.path);
  }

  /** The same document written to another file (for the discovery run before the real file is touched). */
  saveCopy(path: string): void {
    writeFileSync(path, this.text(), { mode: 0o600 });
  }

  clone(): ConfigDocument {
    return new ConfigDocument(this.path, this.source);
  }

  /** Applies one edit; the text must still parse (else the edit is a bug here, named as such). */
  private edit(edit: TextEdit): void {
    const next = applyEdit(this.source, edit);
    const errors = parseDocument(next).errors;
    if (errors.length > 0) throw new Error(`init: editing ${this.path} broke its YAML (${errors[0].message}); the file is untouched`);
    this.source = next;
  }

  private connectionEdit(node: YAMLMap): TextEdit {
    const pair = topPair(this.source, 'connections');
    if (!pair) return appendSection(this.source, `connections:\n${blockText(node, INDENT, true)}`);
    const seq = pair.value;
    if (isSeq(seq) && seq.flow) {
      if (seq.items.length > 0) {
        throw new UneditableConfigError(this.path, 'connections:', 'it is a flow list ([...])', `write it as a block list (one "- id: ..." per line), or add the connection ${String(node.get('id'))} by hand`);
      }
      // `connections: []` becomes `connections:` with the new item under it
      return replaceEmptyFlow(this.source, pair, seq, blockText(node, INDENT, true));
    }
    if (isSeq(seq)) return atBlockEnd(this.source, seq, blockText(node, columnOf(this.source, seq.range![0]), true));
    if (isScalar(seq) && seq.value === null) return underEmptyKey(this.source, pair, blockText(node, INDENT, true));
    throw new ConfigError(['connections: must be a list'], this.path);
  }

  private projectEdit(entry: YAMLMap): TextEdit {
    const pair = topPair(this.source, 'projects');
    if (!pair) return appendSection(this.source, `projects:\n${blockText(entry, INDENT, false)}`);
    const map = pair.value;
    if (isScalar(map) && map.value === null) return underEmptyKey(this.source, pair, blockText(entry, INDENT, false));
    // `projects: {}` (the shipped config) becomes `projects:` with the new block under it, as `connections: []` does
    if (isMap(map) && map.flow && map.items.length === 0) return replaceEmptyFlow(this.source, pair, map, blockText(entry, INDENT, false));
    if (!isMap(map) || map.flow) {
      throw new UneditableConfigError(this.path, 'projects:', isMap(map) ? 'it is a flow mapping ({...}) with entries' : 'it is not a mapping', `write it as one "name:" block per line, or add projects.${entryName(entry)} by hand`);
    }
    return atBlockEnd(this.source, map, blockText(entry, columnOf(this.source, map.range![0]), false));
  }

  private trackerEdit(key: string, value: string): TextEdit {
    const pair = topPair(this.source, 'tracker');
    const entry = new Document({ [key]: value });
    if (!pair) return appendSection(this.source, `tracker:\n${blockText(entry.contents as YAMLMap, INDENT, false)}`);
    const map = pair.value;
    if (isScalar(map) && map.value === null) return underEmptyKey(this.source, pair, blockText(entry.contents as YAMLMap, INDENT, false));
    if (isMap(map) && map.flow && map.items.length === 0) return replaceEmptyFlow(this.source, pair, map, blockText(entry.contents as YAMLMap, INDENT, false));
    if (!isMap(map) || map.flow) {
      throw new UneditableConfigError(this.path, 'tracker:', isMap(map) ? 'it is a flow mapping ({...})' : 'it is not a mapping', `write it as one "key: value" per line, or set tracker.${key} by hand`);
    }
    const existing = map.items.find((item) => isScalar(item.key) && item.key.value === key);
    if (!existing) return atBlockEnd(this.source, map, blockText(entry.contents as YAMLMap, columnOf(this.source, map.range![0]), false));
    if (!isScalar(existing.value)) throw new UneditableConfigError(this.path, `tracker.${key}:`, 'it is not a single value', `set tracker.${key} by hand`);
    return scalarEdit(this.source, existing.value, value);
  }
}

/**
 * A valid file whose shape init's text edits cannot extend (a flow collection with entries, ...). Not a
 * ConfigError: the daemon loads such a file, so the message names what init cannot edit and what to change by hand.
 */
export class UneditableConfigError extends Error {
  constructor(path: string, what: string, why: string, instead: string) {
    super(`init cannot edit ${what} in ${path}: ${why}; ${instead}. Nothing was written.`);
    this.name = 'UneditableConfigError';
  }
}

/** An empty flow collection (`key: {}`, `key: []`) replaced by a block holding `text`: one edit from its bracket to its line's end, the comment after it kept. */
function replaceEmptyFlow(source: string, pair: Pair<Scalar, unknown>, flow: YAMLMap | YAMLSeq, text: string): TextEdit {
  const [bracket, end] = flow.range!;
  const below = underEmptyKey(source, pair, text);
  const rest = source.slice(end, below.at);
  // with no comment after the brackets, the space before them goes too (no trailing blank after `key:`)
  const start = rest.trim() === '' ? bracket - /[ \t]*$/.exec(source.slice(0, bracket))![0].length : bracket;
  return { at: start, length: below.at - start, text: rest + below.text };
}

function entryName(entry: YAMLMap): string {
  const key = entry.items[0]?.key;
  return isScalar(key) ? String(key.value) : String(key);
}

/** Only the scalar's own text is replaced: a comment after it keeps its place. */
function scalarEdit(source: string, node: Scalar, value: string): TextEdit {
  const [start, end] = node.range!;
  // `key:` with no value: the value goes after a space
  const text = (start === end && source[start - 1] === ':' ? ' ' : '') + scalarText(value);
  // a trailing comment stays in its column where the new value leaves room (one space at least)
  const gap = /^[ \t]*(?=#)/.exec(source.slice(end))?.[0];
  if (gap === undefined) return { at: start, length: end - start, text };
  const spaces = Math.max(1, end + gap.length - start - text.length);
  return { at: start, length: end - start + gap.length, text: text + ' '.repeat(spaces) };
}
