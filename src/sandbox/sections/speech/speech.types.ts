/** Document kinds and shapes of speech analytics (Resources: "Speech call", "Speech dictionary"). */
export const DICTIONARY_KIND = 'speech_dictionary';
/** Also read by the client feed (items of type `call`). */
export const SPEECH_CALL_KIND = 'speech_call';

export const SYSTEM_DICTIONARY_PREFIX = 'system_';

export interface DictionaryDoc {
  name: string;
  color: string;
  is_system: 0 | 1;
  is_problem: 0 | 1;
  is_for_operator: 0 | 1;
  is_for_client: 0 | 1;
  phrases: string[];
}

export interface DictionaryMatch {
  id: string;
  name: string;
  word: string;
}

export interface TranscriptionEntry {
  id: number;
  is_client: 0 | 1;
  text: string;
  time: number;
  dictionary_matches: DictionaryMatch[];
  last_text_edit_date: string | null;
}

export type SpeechStatistics = Record<string, number | string>;

export interface SpeechCallDoc {
  /** `YYYY-MM-DDTHH:MM:SS+0000` */
  date: string;
  callee: string;
  caller: string;
  /** The recording link as uploaded; `link` is the service's stored copy. */
  file_url: string;
  link: string | null;
  operator: string | null;
  comment: string | null;
  is_swapped: 0 | 1;
  is_outcoming: 0 | 1;
  order_id: string | null;
  visit_id: string | null;
  marker: number | null;
  fields: { title: string; name: string; value: string }[];
  /** seconds */
  duration: number;
  answer_duration: number;
  waiting_time: number;
  /** Call status for the client feed (ANSWER, BUSY, NOANSWER, ...). */
  call_status: string;
  speech_statistics: SpeechStatistics;
  matched_dictionaries: { client_dictionary_ids: string[]; operator_dictionary_ids: string[] };
  transcriptions: TranscriptionEntry[];
}
