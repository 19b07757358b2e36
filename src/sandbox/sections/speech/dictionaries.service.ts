import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { DICTIONARY_KIND, DictionaryDoc, SYSTEM_DICTIONARY_PREFIX } from './speech.types';

/** Hex (`#f00`, `#ff0000`) or rgb notation (`rgb(255, 0, 0)`). */
const COLOR = /^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\))$/;

export type DictionaryView = Omit<DictionaryDoc, 'phrases'> & { id: string };

/**
 * Speech dictionaries. System dictionaries (`system_N`) are listed but cannot be read, changed or
 * deleted through the `custom` operations; custom ones are fully managed.
 */
@Injectable()
export class DictionariesService {
  constructor(private readonly store: SandboxDocumentStore) {}

  async list(project: number): Promise<DictionaryView[]> {
    const docs = await this.store.list<DictionaryDoc>(project, DICTIONARY_KIND);
    return docs.map(toView);
  }

  async phrases(project: number, body: unknown): Promise<{ dictionary_id: number; phrases: string[] }> {
    const dictionary = await this.custom(project, FieldReader.ofBody(body).requiredId('id'));
    return { dictionary_id: Number(dictionary.id), phrases: dictionary.phrases };
  }

  /** Every field is required; flags are booleans in requests and 0/1 in answers. */
  async create(project: number, body: unknown): Promise<void> {
    const reader = FieldReader.ofBody(body);
    const doc: DictionaryDoc = {
      name: reader.requiredString('name'),
      color: readColor(reader) as string,
      is_system: 0,
      is_problem: flag(reader.requiredBoolean('is_problem')),
      is_for_operator: flag(reader.requiredBoolean('is_for_operator')),
      is_for_client: flag(reader.requiredBoolean('is_for_client')),
      phrases: readPhrases(reader) as string[],
    };
    await this.store.insert(project, DICTIONARY_KIND, doc);
  }

  /** `id` cannot be changed; only the given fields change. */
  async update(project: number, body: unknown): Promise<void> {
    const reader = FieldReader.ofBody(body);
    const dictionary = await this.custom(project, reader.requiredId('id'));
    const patch: Partial<DictionaryDoc> = {};
    const name = reader.optionalString('name');
    if (name !== undefined) patch.name = name;
    const color = readColor(reader, true);
    if (color !== undefined) patch.color = color;
    for (const key of ['is_problem', 'is_for_operator', 'is_for_client'] as const) {
      const value = reader.optionalBoolean(key);
      if (value !== undefined) patch[key] = flag(value);
    }
    const phrases = readPhrases(reader, true);
    if (phrases !== undefined) patch.phrases = phrases;
    await this.store.update<DictionaryDoc>(project, DICTIONARY_KIND, dictionary.id, patch);
  }

  async delete(project: number, body: unknown): Promise<void> {
    const dictionary = await this.custom(project, FieldReader.ofBody(body).requiredId('id'));
    await this.store.remove(project, DICTIONARY_KIND, dictionary.id);
  }

  async all(project: number): Promise<StoredDocument<DictionaryDoc>[]> {
    return this.store.list<DictionaryDoc>(project, DICTIONARY_KIND);
  }

  private async custom(project: number, id: string): Promise<StoredDocument<DictionaryDoc>> {
    if (id.startsWith(SYSTEM_DICTIONARY_PREFIX)) {
      throw badRequest('id', `id: ${id} is a system dictionary; system dictionaries cannot be changed`);
    }
    const dictionary = await this.store.get<DictionaryDoc>(project, DICTIONARY_KIND, id);
    if (!dictionary) throw notFound(`speech dictionary ${id}`);
    return dictionary;
  }
}

function toView({ phrases: _phrases, ...view }: StoredDocument<DictionaryDoc>): DictionaryView {
  return view;
}

function flag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

function readColor(reader: FieldReader, optional = false): string | undefined {
  if (optional && !reader.has('color')) return undefined;
  const color = reader.requiredString('color');
  if (!COLOR.test(color.trim())) throw badRequest('color', `color: must be hex (#ff0000) or rgb(255, 0, 0), got "${color}"`);
  return color.trim();
}

/** Each phrase is a separate, non-empty entry; at least one phrase. */
function readPhrases(reader: FieldReader, optional = false): string[] | undefined {
  if (optional && !reader.has('phrases')) return undefined;
  const phrases = reader.requiredStringArray('phrases').map((phrase) => phrase.trim());
  if (phrases.length === 0) throw badRequest('phrases', 'phrases: at least one phrase is required');
  const empty = phrases.findIndex((phrase) => phrase === '');
  if (empty >= 0) throw badRequest(`phrases[${empty}]`, `phrases[${empty}]: must not be empty`);
  return phrases;
}
