import { StoredDocument } from '../../storage/document-store';
import { DictionaryDoc, SpeechCallDoc, TranscriptionEntry } from './speech.types';

/**
 * Marks the dictionary phrases found in each transcription line (case-insensitive) and collects
 * the matched dictionary ids per side, honouring `is_for_client` / `is_for_operator`.
 */
export function matchDictionaries(
  lines: Omit<TranscriptionEntry, 'dictionary_matches'>[],
  dictionaries: StoredDocument<DictionaryDoc>[],
): Pick<SpeechCallDoc, 'transcriptions' | 'matched_dictionaries'> {
  const client = new Set<string>();
  const operator = new Set<string>();
  const transcriptions = lines.map((line) => {
    const applicable = dictionaries.filter((dictionary) => (line.is_client ? dictionary.is_for_client : dictionary.is_for_operator));
    const matches = applicable.flatMap((dictionary) => dictionary.phrases
      .filter((phrase) => line.text.toLowerCase().includes(phrase.toLowerCase()))
      .map((phrase) => ({ id: dictionary.id, name: dictionary.name, word: phrase })));
    for (const match of matches) (line.is_client ? client : operator).add(match.id);
    return { ...line, dictionary_matches: matches };
  });
  return {
    transcriptions,
    matched_dictionaries: { client_dictionary_ids: [...client], operator_dictionary_ids: [...operator] },
  };
}
