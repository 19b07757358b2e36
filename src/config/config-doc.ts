/**
 * `@Doc` records what a config key means next to its declaration, so the README's
 * configuration reference (see config-keys.ts) cannot drift from the schema.
 */
export type ConfigClass = new () => object;

export interface DocOptions {
  /** How the type reads in the docs, e.g. 'integer 1..10000' or '"pretty" | "json"'. */
  type: string;
  /** A nested section: its keys are listed under this key's path. */
  nested?: () => ConfigClass;
  /** A list of `nested` items (keys listed under `key[].`). */
  list?: boolean;
  /** A mapping of names to `nested` items (keys listed under `key.<name>.`). */
  map?: boolean;
}

export interface DocEntry extends DocOptions {
  key: string;
  description: string;
}

const registry = new Map<Function, DocEntry[]>();

export function Doc(description: string, options: DocOptions): PropertyDecorator {
  return (target, key) => {
    const entries = registry.get(target.constructor) ?? [];
    entries.push({ key: String(key), description, ...options });
    registry.set(target.constructor, entries);
  };
}

/** The documented keys of a config class, in declaration order. */
export function docEntries(configClass: Function): DocEntry[] {
  return registry.get(configClass) ?? [];
}
