/** Document kinds and shapes of speech analytics (Resources: "Speech call", "Speech dictionary"). */
import type { SpeechDictionary, SpeechTranscription } from '../../../tracker/types/speech.types';

export const DICTIONARY_KIND = 'speech_dictionary';
/** Also read by the client feed (items of type `call`). */
export const SPEECH_CALL_KIND = 'speech_call';

export const SYSTEM_DICTIONARY_PREFIX = 'system_';

export interface DictionaryDoc extends Omit<SpeechDictionary, 'id'> {
  phrases: string[];
}

export type TranscriptionEntry = SpeechTranscription;

/** Built key by key from the transcription (speech-statistics.ts). */
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
