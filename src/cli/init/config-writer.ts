import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { dirname } from 'path';
import { Document, isMap, isSeq, Pair, parseDocument, YAMLMap, YAMLSeq } from 'yaml';
import { ConfigError, validateConfig } from '../../config';
import type { SettingsValidator } from '../../config';

/**
 * The config file as a YAML document (the `yaml` package's Document API), so a connection is added with the
 * file's comments, order and formatting kept. Nothing is written unless the new text loads.
 */
export class ConfigDocument {
  private constructor(
    readonly path: string,
    readonly doc: Document,
  ) {}

  static read(path: string): ConfigDocument {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const doc: Document = parseDocument(text);
    if (doc.errors.length > 0) throw new ConfigError(doc.errors.map((e) => e.message), path);
    if (doc.contents === null || doc.contents === undefined) doc.contents = new YAMLMap();
    if (!isMap(doc.contents)) throw new ConfigError(['the file must be a mapping of sections (server:, tracker:, connections:, ...)'], path);
    return new ConfigDocument(path, doc);
  }

  hasConnection(id: string): boolean {
    return this.connections().items.some((item) => isMap(item) && item.get('id') === id);
  }

  /** `tracker:` keys set (the section created when absent), other keys of it kept. */
  setTracker(values: Record<string, string>): void {
    for (const [key, value] of Object.entries(values)) this.doc.setIn(['tracker', key], value);
  }

  /** Appends a connection; `settingsPairs` go under its `settings:` after the plain ones (comments kept on them). */
  addConnection(connection: { id: string; connector: string; schedule?: string; settings: Record<string, unknown> }, settingsPairs: Pair[] = []): void {
    const node = new YAMLMap();
    node.add(new Pair(this.doc.createNode('id'), this.doc.createNode(connection.id)));
    node.add(new Pair(this.doc.createNode('connector'), this.doc.createNode(connection.connector)));
    if (connection.schedule) node.add(new Pair(this.doc.createNode('schedule'), this.doc.createNode(connection.schedule)));
    const settings = this.doc.createNode(connection.settings) as YAMLMap;
    for (const pair of settingsPairs) settings.add(pair);
    node.add(new Pair(this.doc.createNode('settings'), settings));
    this.connections().add(node);
  }

  text(): string {
    return this.doc.toString({ lineWidth: 0 });
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
    return new ConfigDocument(this.path, this.doc.clone());
  }

  private connections(): YAMLSeq {
    let seq = this.doc.get('connections');
    if (!isSeq(seq)) {
      if (seq !== undefined && seq !== null) throw new ConfigError(['connections: must be a list'], this.path);
      seq = new YAMLSeq();
      this.doc.set('connections', seq);
    }
    return seq as YAMLSeq;
  }
}
