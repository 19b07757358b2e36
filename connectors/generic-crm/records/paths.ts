/**
 * Plain dotted paths ('a.b.0.c', 'a.b[0].c'): the common case of a mapping, read without any
 * expression evaluator. Split once when the stream is built, then a loop per record.
 */
export type CompiledPath = readonly string[];

export function compilePath(path: string): CompiledPath {
  if (path === '' || path === '$') return [];
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment.length > 0);
}

export function readPath(value: unknown, path: CompiledPath): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export function getPath(value: unknown, path: string): unknown {
  return readPath(value, compilePath(path));
}
