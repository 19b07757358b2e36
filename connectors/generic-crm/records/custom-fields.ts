import { CustomFieldsDefinition } from '../definition/stream-definition';
import { multiValues } from 'tracker-sync/connector';
import { compilePath, CompiledPath, readPath } from './paths';

/** One custom field of a CRM record, with its id (key) and its human name when the CRM gives one. */
export interface CustomEntry {
  id: string;
  name: string;
  value: string | null;
}

/** Reads custom fields from a list of objects (amoCRM custom_fields_values) or from object keys (UF_CRM_*). */
export class CustomFieldReader {
  private readonly path: CompiledPath;
  private readonly id: CompiledPath;
  private readonly name: CompiledPath;
  private readonly value: CompiledPath;
  private readonly code: CompiledPath | null;
  private readonly include: RegExp | null;
  /** lower case: a field is named as the CRM writes it or as the user typed it (write_back.fields) */
  private readonly exclude: Set<string>;

  constructor(
    private readonly definition: CustomFieldsDefinition,
    /** key -> human name, fetched once per run (Pipedrive dealFields, Bitrix24 crm.item.fields) */
    private readonly labels: Map<string, string> = new Map(),
  ) {
    this.path = compilePath(definition.path ?? '');
    this.id = compilePath(definition.id ?? 'id');
    this.name = compilePath(definition.name ?? 'name');
    this.value = compilePath(definition.value ?? 'value');
    this.code = definition.code ? compilePath(definition.code) : null;
    this.include = definition.include ? new RegExp(definition.include) : null;
    this.exclude = new Set((definition.exclude ?? []).map((item) => item.toLowerCase()));
  }

  read(record: unknown): CustomEntry[] {
    const source = readPath(record, this.path);
    return this.definition.kind === 'list' ? this.fromList(source) : this.fromKeys(source);
  }

  private fromList(source: unknown): CustomEntry[] {
    if (!Array.isArray(source)) return [];
    const entries: CustomEntry[] = [];
    for (const item of source) {
      const id = String(readPath(item, this.id) ?? '');
      const rawName = readPath(item, this.name);
      const name = rawName === undefined || rawName === null ? (this.labels.get(id) ?? id) : String(rawName);
      const code = this.code ? readPath(item, this.code) : undefined;
      if (this.excluded(id) || this.excluded(name) || (code !== undefined && this.excluded(String(code)))) continue;
      entries.push({ id, name, value: text(readPath(item, this.value)) });
    }
    return entries;
  }

  private excluded(idOrName: string): boolean {
    return this.exclude.has(idOrName.toLowerCase());
  }

  private fromKeys(source: unknown): CustomEntry[] {
    if (typeof source !== 'object' || source === null) return [];
    const entries: CustomEntry[] = [];
    for (const [key, value] of Object.entries(source)) {
      const name = this.labels.get(key) ?? key;
      if (this.excluded(key) || this.excluded(name) || (this.include && !this.include.test(key))) continue;
      entries.push({ id: key, name, value: text(value) });
    }
    return entries;
  }
}

/** A custom field's value as the service takes it: a string or null. Lists are joined with ', '. */
export function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') {
    const parts = multiValues(value).filter((part) => part !== '');
    if (parts.length > 0) return parts.join(', ');
    return Array.isArray(value) ? null : JSON.stringify(value);
  }
  const result = String(value);
  return result === '' ? null : result;
}

/** The entry holding the visit number: visit_field matches an id exactly or a name case-insensitively. */
export function isVisitEntry(entry: CustomEntry, visitField: string): boolean {
  return entry.id === visitField || entry.name.toLowerCase() === visitField.toLowerCase();
}
