import { Document, isMap, isScalar, isSeq, Node, Pair, parseDocument, Scalar } from 'yaml';

/**
 * Edits of a YAML file as text inserted (or one scalar replaced) at offsets found from the parsed document's
 * node ranges: every byte outside the edit stays as it was (comments, their alignment, blank lines, order).
 * The `yaml` Document API re-prints the whole file instead, which moves comments and re-aligns them.
 */
export interface TextEdit {
  at: number;
  /** bytes replaced from `at` (0: a pure insertion) */
  length: number;
  text: string;
}

export function applyEdit(source: string, edit: TextEdit): string {
  return source.slice(0, edit.at) + edit.text + source.slice(edit.at + edit.length);
}

/** The offset just after the last line of the block collection starting at `start` (before trailing blank lines). */
export function blockEnd(source: string, start: number, kind: 'seq' | 'map'): number {
  const column = columnOf(source, start);
  let end = lineEndAfter(source, start);
  let at = end;
  while (at < source.length) {
    const next = lineEndAfter(source, at);
    const line = source.slice(at, next).replace(/\r?\n$/, '');
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    if (body === '') {
      // blank lines belong to the block only when more of it follows
    } else if (body.startsWith('#')) {
      // a comment indented under the block is the block's (e.g. a commented example under a connection);
      // one at the block's column or left of it may be the next section's heading
      if (indent > column) end = next;
    } else if (indent > column || (indent === column && (kind === 'map' || body === '-' || body.startsWith('- ')))) {
      end = next;
    } else {
      break;
    }
    at = next;
  }
  return end;
}

/** `node` printed as block YAML, each line indented by `column` (as a sequence item: `- ` before its first line). */
export function blockText(node: Node, column: number, asItem: boolean): string {
  const holder = new Document();
  holder.contents = node;
  const lines = holder.toString({ lineWidth: 0 }).replace(/\n$/, '').split('\n');
  const pad = ' '.repeat(column);
  return lines
    .map((line, i) => {
      if (line === '') return '';
      if (!asItem) return pad + line;
      return i === 0 ? `${pad}- ${line}` : `${pad}  ${line}`;
    })
    .join('\n') + '\n';
}

/** A scalar as YAML text (quoted when plain text would read as another type or break the line). */
export function scalarText(value: string): string {
  return new Document(value).toString({ lineWidth: 0 }).replace(/\n$/, '');
}

/** The top-level pair of `key`, or undefined. */
export function topPair(source: string, key: string): Pair<Scalar, unknown> | undefined {
  const contents = parseDocument(source).contents;
  if (!isMap(contents)) return undefined;
  return contents.items.find((pair) => isScalar(pair.key) && pair.key.value === key) as Pair<Scalar, unknown> | undefined;
}

/** Where a new top-level section goes: the end of the file, after a line break (and a blank line). */
export function appendSection(source: string, text: string): TextEdit {
  const separator = source === '' ? '' : source.endsWith('\n') ? '\n' : '\n\n';
  return { at: source.length, length: 0, text: separator + text };
}

/** Where the first entry of a key with no value (`key:` and maybe a comment) goes: the line after the key. */
export function underEmptyKey(source: string, pair: Pair<Scalar, unknown>, text: string): TextEdit {
  const at = lineEndAfter(source, pair.key.range![0]);
  return { at, length: 0, text: at === source.length && !source.endsWith('\n') ? `\n${text}` : text };
}

/** At the end of a block sequence or mapping (the line after its last line). */
export function atBlockEnd(source: string, node: Node, text: string): TextEdit {
  const at = blockEnd(source, node.range![0], isSeq(node) ? 'seq' : 'map');
  return { at, length: 0, text: at === source.length && !source.endsWith('\n') ? `\n${text}` : text };
}

export function columnOf(source: string, offset: number): number {
  return offset - (source.lastIndexOf('\n', offset - 1) + 1);
}

/** The offset after the line break ending the line that holds `offset` (or the end of the text). */
function lineEndAfter(source: string, offset: number): number {
  const newline = source.indexOf('\n', offset);
  return newline === -1 ? source.length : newline + 1;
}
